package io.sonde.bench.overhead.kieker;

import io.sonde.bench.overhead.Phase;
import io.sonde.bench.overhead.framework.ArtifactCache;
import io.sonde.bench.overhead.framework.Framework;
import io.sonde.bench.overhead.framework.RecordCount;
import io.sonde.bench.overhead.framework.RunContext;
import io.sonde.bench.overhead.framework.RunSetup;
import io.sonde.bench.overhead.sink.TcpRecordSink;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Kieker 2.x with its ByteBuddy agent ({@code net.kieker-monitoring:kieker:2.0.2:jar:bytebuddy}),
 * configured as MooBench configures it: deactivated = monitoring disabled; discard = the dump
 * writer with the dump queue (records are dropped at the queue); file = the file writer with the
 * binary log stream handler; tcp = the single-socket TCP writer to a receiver of the harness.
 * The agent reads what to instrument from the environment variable
 * {@code KIEKER_SIGNATURES_INCLUDE}.
 */
public final class KiekerFramework implements Framework {

    /** The Kieker release benchmarked. */
    public static final String VERSION = "2.0.2";
    /** Kieker's pattern of the benchmarked method (parameter types spelled out: its parser
     *  cuts the class name at the last dot, so {@code (..)} would break it). */
    static final String SIGNATURE = "* io.sonde.bench.overhead.app.MonitoredClass.monitoredMethod(long, int)";
    static final String MARKER = ".MonitoredClass.monitoredMethod(";
    static final String YIELD_NOTE = "yield put/take queue strategies: Kieker's default blocking ones deadlock"
            + " with more than one application thread";

    private final ArtifactCache cache;
    private Path agent;

    /** Kieker, its agent fetched through {@code cache}. */
    public KiekerFramework(ArtifactCache cache) {
        this.cache = cache;
    }

    @Override
    public String name() {
        return "kieker";
    }

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public void prepare() throws IOException {
        agent = cache.jar("net.kieker-monitoring", "kieker", VERSION, "bytebuddy");
    }

    /**
     * The JVM options every monitored Kieker run starts with: the agent and the settings MooBench
     * uses (no adaptive monitoring, no periodic sensors, a fixed host name). The list is mutable.
     * What to instrument goes into the environment variable {@code KIEKER_SIGNATURES_INCLUDE}.
     */
    public static List<String> baseOptions(Path agentJar) {
        return new ArrayList<>(List.of(
                "-javaagent:" + agentJar,
                "-Dkieker.monitoring.name=KIEKER-BENCHMARK",
                "-Dkieker.monitoring.adaptiveMonitoring.enabled=false",
                "-Dkieker.monitoring.periodicSensorsExecutorPoolSize=0",
                "-Dkieker.monitoring.hostname=bench"));
    }

    /**
     * The queue strategies a run with more than one application thread needs: Kieker 2.0.2's
     * default ones (single-producer blocking put, blocking take) lose a wake-up with two or more
     * producing threads and hang (seen in every run with the file and TCP writers); its yield
     * strategies do not.
     */
    public static List<String> yieldStrategies() {
        return List.of(
                "-Dkieker.monitoring.core.controller.WriterController.QueuePutStrategy="
                        + "kieker.monitoring.queue.putstrategy.YieldPutStrategy",
                "-Dkieker.monitoring.core.controller.WriterController.QueueTakeStrategy="
                        + "kieker.monitoring.queue.takestrategy.YieldTakeStrategy");
    }

    /** Monitoring on, records to Kieker's binary file writer in {@code dir} (count them with {@link KiekerFiles}). */
    public static List<String> binaryFileWriter(Path dir) {
        return List.of(
                "-Dkieker.monitoring.enabled=true",
                "-Dkieker.monitoring.writer=kieker.monitoring.writer.filesystem.FileWriter",
                "-Dkieker.monitoring.writer.filesystem.FileWriter.logStreamHandler=kieker.monitoring.writer.filesystem.BinaryLogStreamHandler",
                "-Dkieker.monitoring.writer.filesystem.FileWriter.customStoragePath=" + dir);
    }

    @Override
    public RunSetup setup(Phase phase, RunContext context) throws IOException {
        List<String> options = baseOptions(agent);
        Map<String, String> env = Map.of("KIEKER_SIGNATURES_INCLUDE", SIGNATURE);
        String note = null;
        if (context.threads() > 1 && phase != Phase.DEACTIVATED) {
            options.addAll(yieldStrategies());
            note = YIELD_NOTE;
        }
        final String remark = note;
        switch (phase) {
            case DEACTIVATED -> {
                options.add("-Dkieker.monitoring.enabled=false");
                options.add("-Dkieker.monitoring.writer=kieker.monitoring.writer.dump.DumpWriter");
                return RunSetup.of(options, env, RecordCount.unknown("monitoring disabled: nothing is written"));
            }
            case DISCARD -> {
                options.add("-Dkieker.monitoring.enabled=true");
                options.add("-Dkieker.monitoring.writer=kieker.monitoring.writer.dump.DumpWriter");
                options.add("-Dkieker.monitoring.core.controller.WriterController.RecordQueueFQN=kieker.monitoring.writer.dump.DumpQueue");
                return RunSetup.of(options, env, RecordCount.unknown("dump writer: records are dropped, nothing to count"
                        + (remark == null ? "" : "; " + remark)));
            }
            case FILE -> {
                Path dir = Files.createDirectories(context.runDir().resolve("kieker-data"));
                options.addAll(binaryFileWriter(dir));
                return new RunSetup() {
                    @Override
                    public List<String> jvmOptions() {
                        return options;
                    }

                    @Override
                    public Map<String, String> environment() {
                        return env;
                    }

                    @Override
                    public RecordCount countRecords() throws IOException {
                        return new RecordCount(KiekerFiles.count(dir, MARKER).matching(), remark);
                    }
                };
            }
            case TCP -> {
                KiekerRecordCounter counter = new KiekerRecordCounter(MARKER);
                TcpRecordSink sink = new TcpRecordSink((in, peer) -> {
                    synchronized (counter) {
                        counter.consume(new DataInputStream(in), peer);
                    }
                });
                options.add("-Dkieker.monitoring.enabled=true");
                options.add("-Dkieker.monitoring.writer=kieker.monitoring.writer.tcp.SingleSocketTcpWriter");
                options.add("-Dkieker.monitoring.writer.tcp.SingleSocketTcpWriter.hostname=127.0.0.1");
                options.add("-Dkieker.monitoring.writer.tcp.SingleSocketTcpWriter.port=" + sink.port());
                return new RunSetup() {
                    @Override
                    public List<String> jvmOptions() {
                        return options;
                    }

                    @Override
                    public Map<String, String> environment() {
                        return env;
                    }

                    @Override
                    public RecordCount countRecords() throws IOException {
                        try {
                            boolean drained = sink.awaitDrained(30_000, 1);
                            List<String> problems = sink.problems();
                            synchronized (counter) {
                                if (!problems.isEmpty()) {
                                    return new RecordCount(counter.matching(), "receiver: " + String.join("; ", problems));
                                }
                                if (!drained) {
                                    return new RecordCount(counter.matching(), "receiver: no connection, or still reading, after 30 s");
                                }
                                return new RecordCount(counter.matching(), remark);
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IOException("interrupted while waiting for the receiver");
                        }
                    }

                    @Override
                    public void close() throws IOException {
                        sink.close();
                    }
                };
            }
            default -> throw new IllegalArgumentException("phase " + phase.label() + " has no Kieker setup");
        }
    }
}
