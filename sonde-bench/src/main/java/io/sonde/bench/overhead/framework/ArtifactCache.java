package io.sonde.bench.overhead.framework;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Fetches the other frameworks' agent jars and the benchmarked libraries from Maven Central at run
 * time into a cache outside the repository (default {@code ~/.cache/sonde/bench}). Order of
 * attempts for one jar: the cache itself, the local Maven repository, {@code mvn dependency:get}
 * (so Maven's configured mirror is used), and a plain HTTPS download from Maven Central. A whole
 * class path (an artifact with its dependencies) is resolved through Maven only.
 */
public final class ArtifactCache {

    private static final String CENTRAL = "https://repo.maven.apache.org/maven2/";
    private static final String DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.11.0:get";
    private static final String BUILD_CLASSPATH = "org.apache.maven.plugins:maven-dependency-plugin:3.11.0:build-classpath";

    private final Path dir;

    /** A cache in {@code dir} (created when needed). */
    public ArtifactCache(Path dir) {
        this.dir = dir;
    }

    /**
     * The jar of {@code group:artifact:version[:classifier]}, fetched if not cached yet.
     *
     * @throws IOException naming the artifact and every place that was tried
     */
    public Path jar(String group, String artifact, String version, String classifier) throws IOException {
        String file = artifact + "-" + version + (classifier == null ? "" : "-" + classifier) + ".jar";
        Path cached = dir.resolve(file);
        if (isJar(cached)) {
            return cached;
        }
        Files.createDirectories(dir);
        String relative = group.replace('.', '/') + "/" + artifact + "/" + version + "/" + file;
        Path local = Path.of(System.getProperty("user.home"), ".m2", "repository").resolve(relative);
        List<String> tried = new ArrayList<>();
        if (!isJar(local)) {
            tried.add(mavenGet(group + ":" + artifact + ":" + version + ":jar" + (classifier == null ? "" : ":" + classifier)));
        }
        if (isJar(local)) {
            copyInto(local, cached);
            return cached;
        }
        tried.add("local repository " + local);
        tried.add(download(CENTRAL + relative, cached));
        if (isJar(cached)) {
            return cached;
        }
        throw new IOException("cannot fetch " + group + ":" + artifact + ":" + version
                + (classifier == null ? "" : ":" + classifier) + "; tried: " + String.join("; ", tried));
    }

    /**
     * The run-time class path of {@code group:artifact:version} with all its dependencies,
     * resolved once through Maven ({@code dependency:build-classpath} on a one-dependency POM, so
     * Maven's configured mirror and local repository are used) and cached as a list of jars.
     *
     * @throws IOException naming the artifact and the log of the failed resolution
     */
    public List<Path> classPath(String group, String artifact, String version) throws IOException {
        Path dirOfPom = dir.resolve("classpath").resolve(group + "_" + artifact + "_" + version);
        Path list = dirOfPom.resolve("classpath.txt");
        List<Path> jars = readClassPath(list);
        if (jars != null) {
            return jars;
        }
        Files.createDirectories(dirOfPom);
        Files.writeString(dirOfPom.resolve("pom.xml"), String.join("\n",
                "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">",
                "  <modelVersion>4.0.0</modelVersion>",
                "  <groupId>io.sonde.bench.resolve</groupId><artifactId>resolve</artifactId><version>1</version>",
                "  <packaging>pom</packaging>",
                "  <dependencies><dependency><groupId>" + group + "</groupId><artifactId>" + artifact
                        + "</artifactId><version>" + version + "</version></dependency></dependencies>",
                "</project>", ""));
        Path log = dirOfPom.resolve("mvn.log");
        Path partial = dirOfPom.resolve("classpath.part");
        List<String> command = List.of("mvn", "-B", "-ntp", "-f", dirOfPom.resolve("pom.xml").toString(),
                BUILD_CLASSPATH, "-Dmdep.outputFile=" + partial, "-Dmdep.includeScope=runtime");
        String attempt = runMaven(command, log);
        jars = readClassPath(partial);
        if (jars == null) {
            throw new IOException("cannot resolve the class path of " + group + ":" + artifact + ":" + version
                    + ": " + attempt + " (log: " + log + ")");
        }
        Files.move(partial, list, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return jars;
    }

    /** The jars listed in {@code file}, or null when it is missing or names a jar that is gone. */
    private static List<Path> readClassPath(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        List<Path> jars = new ArrayList<>();
        for (String entry : Files.readString(file).trim().split(java.io.File.pathSeparator)) {
            Path jar = Path.of(entry.trim());
            if (entry.isBlank() || !isJar(jar)) {
                return null;
            }
            jars.add(jar);
        }
        return jars;
    }

    private static boolean isJar(Path p) throws IOException {
        if (!Files.isRegularFile(p) || Files.size(p) < 4) {
            return false;
        }
        try (InputStream in = Files.newInputStream(p)) {
            return in.read() == 'P' && in.read() == 'K';
        }
    }

    private void copyInto(Path from, Path to) throws IOException {
        Path tmp = Files.createTempFile(dir, to.getFileName().toString(), ".part");
        Files.copy(from, tmp, StandardCopyOption.REPLACE_EXISTING);
        Files.move(tmp, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Runs mvn dependency:get; returns a description of the attempt for error messages. */
    private static String mavenGet(String coordinates) {
        return runMaven(List.of("mvn", "-B", "-q", "-ntp", DEPENDENCY_PLUGIN, "-Dartifact=" + coordinates,
                "-Dtransitive=false"), null);
    }

    /** Runs Maven (output to {@code log}, or discarded when null); returns a description of the attempt. */
    private static String runMaven(List<String> command, Path log) {
        String goal = "mvn " + command.stream().filter(a -> a.contains("maven-dependency-plugin")).findFirst()
                .map(a -> "dependency:" + a.substring(a.lastIndexOf(':') + 1)).orElse("");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.to(log.toFile()))
                    .start();
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return goal + " (timed out)";
            }
            return goal + " (exit " + p.exitValue() + ")";
        } catch (IOException e) {
            return goal + " (no mvn: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return goal + " (interrupted)";
        }
    }

    private String download(String url, Path to) {
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(20))
                    .followRedirects(HttpClient.Redirect.NORMAL).build();
            Path tmp = Files.createTempFile(dir, to.getFileName().toString(), ".part");
            HttpResponse<Path> response = client.send(
                    HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(5)).build(),
                    HttpResponse.BodyHandlers.ofFile(tmp));
            if (response.statusCode() != 200) {
                Files.deleteIfExists(tmp);
                return url + " (HTTP " + response.statusCode() + ")";
            }
            Files.move(tmp, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return url;
        } catch (IOException e) {
            return url + " (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return url + " (interrupted)";
        }
    }
}
