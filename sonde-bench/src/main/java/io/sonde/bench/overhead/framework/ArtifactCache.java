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
 * Fetches the other frameworks' agent jars from Maven Central at run time into a cache outside
 * the repository (default {@code ~/.cache/sonde/bench}). Order of attempts: the cache itself, the
 * local Maven repository, {@code mvn dependency:get} (so Maven's configured mirror is used), and a
 * plain HTTPS download from Maven Central.
 */
public final class ArtifactCache {

    private static final String CENTRAL = "https://repo.maven.apache.org/maven2/";
    private static final String DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.11.0:get";

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
        List<String> command = List.of("mvn", "-B", "-q", "-ntp", DEPENDENCY_PLUGIN, "-Dartifact=" + coordinates,
                "-Dtransitive=false");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return "mvn dependency:get (timed out)";
            }
            return "mvn dependency:get (exit " + p.exitValue() + ")";
        } catch (IOException e) {
            return "mvn dependency:get (no mvn: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "mvn dependency:get (interrupted)";
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
