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
 * Packs the benchmark application (package {@code io.sonde.bench.overhead.app}) into a jar of its
 * own, so that the application JVM has nothing but that package on its class path and the agents
 * instrument only it.
 */
final class AppJar {

    private static final String PACKAGE_DIR = "io/sonde/bench/overhead/app/";

    private AppJar() {}

    /** Writes the application jar to {@code target} and returns it. */
    static Path write(Path target) throws IOException {
        List<String> names = classNames();
        if (names.isEmpty()) {
            throw new IOException("cannot find the benchmark application classes (" + PACKAGE_DIR + ")");
        }
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, BenchmarkApp.class.getName());
        Files.createDirectories(target.getParent());
        try (OutputStream file = Files.newOutputStream(target); JarOutputStream jar = new JarOutputStream(file, manifest)) {
            for (String name : names) {
                try (InputStream in = BenchmarkApp.class.getClassLoader().getResourceAsStream(name)) {
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
    private static List<String> classNames() throws IOException {
        Path location;
        try {
            location = Path.of(BenchmarkApp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IOException("cannot locate the harness classes: " + e);
        }
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(location)) {
            try (Stream<Path> files = Files.list(location.resolve(PACKAGE_DIR))) {
                files.map(p -> PACKAGE_DIR + p.getFileName()).filter(n -> n.endsWith(".class")).sorted().forEach(names::add);
            }
        } else {
            try (JarFile jar = new JarFile(location.toFile())) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    String n = entries.nextElement().getName();
                    if (n.startsWith(PACKAGE_DIR) && n.endsWith(".class") && n.indexOf('/', PACKAGE_DIR.length()) < 0) {
                        names.add(n);
                    }
                }
            }
        }
        return names;
    }
}
