package io.sonde.core.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * {@link AttachTarget} JVMs started by a test, each ended (normally, by closing its stdin) after
 * the test ({@code @RegisterExtension}).
 */
final class AttachTargetProcesses implements AfterEachCallback {

    /** Generous: the machine may be heavily loaded. */
    static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final List<Process> started = new ArrayList<>();

    /** Starts AttachTarget in {@code dir} (its output in out.txt there) with a JVM option; returns once its main runs. */
    Process start(Path dir, String option) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path out = dir.resolve("out.txt");
        Process p = new ProcessBuilder(java.toString(), option, "-cp", System.getProperty("java.class.path"),
                AttachTarget.class.getName())
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        started.add(p);
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (!Files.readString(out).startsWith("ready")) {
            assertThat(p.isAlive()).as("target JVM running").isTrue();
            assertThat(System.nanoTime() - deadline).as("target JVM ready within 60 s").isNegative();
            Thread.sleep(10);
        }
        return p;
    }

    /** A jar of only a manifest naming AttachTarget as its agent (in {@code dir}): the target finds the class on its class path. */
    static Path agentJar(Path dir) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(new Attributes.Name("Agent-Class"), AttachTarget.class.getName());
        Path jar = dir.resolve("agent.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            // the manifest is all
        }
        return jar;
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        for (Process p : started) {
            // closing stdin ends AttachTarget normally, so its JVM removes its attach socket
            p.getOutputStream().close();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
            }
        }
    }
}
