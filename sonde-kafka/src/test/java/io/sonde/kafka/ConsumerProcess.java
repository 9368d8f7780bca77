package io.sonde.kafka;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A {@link ConsumerProcessMain} JVM and the last status line it printed. */
final class ConsumerProcess {
    private static final Pattern STATUS = Pattern.compile("status frames=(\\d+) partitions=(\\d+)");

    private final Process process;
    private volatile String last = "(nothing yet)";
    private volatile long frames;
    private volatile int partitions;

    private ConsumerProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(this::read, "consumer-process-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    static ConsumerProcess start(String bootstrap, String topic, String group, Path archive, Path stderr) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"), ConsumerProcessMain.class.getName(), bootstrap,
                topic, group, archive.toString(), "30").redirectError(stderr.toFile()).start();
        return new ConsumerProcess(p);
    }

    private void read() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                Matcher m = STATUS.matcher(line);
                if (m.matches()) {
                    frames = Long.parseLong(m.group(1));
                    partitions = Integer.parseInt(m.group(2));
                    last = line;
                }
            }
        } catch (IOException ended) {
            // the process is gone
        }
    }

    long frames() {
        return frames;
    }

    int partitions() {
        return partitions;
    }

    String last() {
        return last + (process.isAlive() ? "" : " (exited " + process.exitValue() + ")");
    }

    /** SIGKILL, and waits for the process to be gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Closes its stdin: an orderly stop (commit, leave the group). */
    void stop() throws IOException, InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        process.getOutputStream().close();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("consumer process did not stop within 60 s");
        }
    }
}
