package io.sonde.bench.overhead;

import io.sonde.bench.overhead.app.BenchmarkApp;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Packs a benchmark application (the package of its main class, e.g.
 * {@code io.sonde.bench.overhead.app}) into a jar of its own, so that the application JVM has
 * nothing but that package (and the libraries it is given) on its class path and the agents
 * instrument only what they are told to.
 */
public final class AppJar {

    private AppJar() {}

    /** Writes the overhead benchmark's application jar to {@code target} and returns it. */
    static Path write(Path target) throws IOException {
        return write(target, BenchmarkApp.class);
    }

    /**
     * Writes a jar of the classes in {@code mainClass}'s package (not its sub-packages) to
     * {@code target}, with {@code mainClass} as its Main-Class, and returns it.
     */
    public static Path write(Path target, Class<?> mainClass) throws IOException {
        String packageDir = mainClass.getPackageName().replace('.', '/') + "/";
        List<String> names = classNames(mainClass, packageDir);
        if (names.isEmpty()) {
            throw new IOException("cannot find the benchmark application classes (" + packageDir + ")");
        }
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass.getName());
        Files.createDirectories(target.getParent());
        try (OutputStream file = Files.newOutputStream(target); JarOutputStream jar = new JarOutputStream(file, manifest)) {
            for (String name : names) {
                try (InputStream in = mainClass.getClassLoader().getResourceAsStream(name)) {
                    if (in == null) {
                        throw new IOException("class file " + name + " not found on the class path");
                    }
                    jar.putNextEntry(new JarEntry(name));
                    in.transferTo(jar);
                    jar.closeEntry();
                }
            }
        }
        return target;
    }

    /** The class files of the application package, from wherever the harness was loaded. */
    private static List<String> classNames(Class<?> mainClass, String packageDir) throws IOException {
        Path location;
        try {
            location = Path.of(mainClass.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IOException("cannot locate the harness classes: " + e);
        }
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(location)) {
            try (Stream<Path> files = Files.list(location.resolve(packageDir))) {
                files.map(p -> packageDir + p.getFileName()).filter(n -> n.endsWith(".class")).sorted().forEach(names::add);
            }
        } else {
            try (JarFile jar = new JarFile(location.toFile())) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    String n = entries.nextElement().getName();
                    if (n.startsWith(packageDir) && n.endsWith(".class") && n.indexOf('/', packageDir.length()) < 0) {
                        names.add(n);
                    }
                }
            }
        }
        return names;
    }
}
