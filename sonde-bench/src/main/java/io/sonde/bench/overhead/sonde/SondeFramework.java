package io.sonde.bench.overhead.sonde;

import io.sonde.bench.overhead.Phase;
import io.sonde.bench.overhead.framework.Framework;
import io.sonde.bench.overhead.framework.RecordCount;
import io.sonde.bench.overhead.framework.RunContext;
import io.sonde.bench.overhead.framework.RunSetup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import io.sonde.collector.archive.Archive;
import io.sonde.collector.receive.Receiver;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.collector.receive.StreamSummary;

/**
 * Sonde's own agent ({@code sonde-agent.jar}), instrumenting the benchmarked method. The jar is
 * taken from {@code --sonde-agent} or found next to the build ({@code sonde-agent/target}).
 */
public final class SondeFramework implements Framework {

    /** The pattern of the benchmarked method in the agent's include syntax. */
    static final String INCLUDE = "io.sonde.bench.overhead.app.MonitoredClass.monitoredMethod";
    /** What the probe name of the benchmarked method contains. */
    static final String PROBE_MARKER = "MonitoredClass.monitoredMethod";

    private final Path explicitJar;
    private final Path snapshotDir;
    private Path agent;

    /**
     * Sonde, with the agent jar at {@code jar} or (when null) searched next to the build. The jar
     * is copied into {@code snapshotDir} so that every run of one benchmark uses the same agent,
     * even if the build replaces the jar meanwhile.
     */
    public SondeFramework(Path jar, Path snapshotDir) {
        this.explicitJar = jar;
        this.snapshotDir = snapshotDir;
    }

    @Override
    public String name() {
        return "sonde";
    }

    @Override
    public String version() {
        String v = SondeFramework.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }

    /** Where the agent jar is looked for when not given. */
    public static List<Path> candidates() {
        List<Path> list = new ArrayList<>();
        String home = System.getProperty("sonde.home");
        if (home != null) {
            list.add(Path.of(home, "sonde-agent", "target", "sonde-agent.jar"));
        }
        list.add(Path.of("sonde-agent", "target", "sonde-agent.jar"));
        list.add(Path.of("..", "sonde-agent", "target", "sonde-agent.jar"));
        try {
            Path here = Path.of(SondeFramework.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // sonde-bench/target/classes or sonde-bench/target/sonde-benchmarks.jar
            for (Path p = here; p != null; p = p.getParent()) {
                Path candidate = p.resolve("sonde-agent").resolve("target").resolve("sonde-agent.jar");
                if (!list.contains(candidate)) {
                    list.add(candidate);
                }
            }
        } catch (Exception e) {
            // no code source: only the working-directory candidates
        }
        return list;
    }

    @Override
    public void prepare() throws IOException {
        if (explicitJar != null) {
            if (!Files.isRegularFile(explicitJar)) {
                throw new IOException("option --sonde-agent: " + explicitJar + " does not exist");
            }
            agent = snapshot(explicitJar);
            return;
        }
        for (Path p : candidates()) {
            if (Files.isRegularFile(p)) {
                agent = snapshot(p);
                return;
            }
        }
        throw new IOException("Sonde agent jar not found (looked at " + candidates()
                + "); build it with `mvn -pl sonde-agent -am package` or pass --sonde-agent JAR");
    }

    private Path snapshot(Path jar) throws IOException {
        Files.createDirectories(snapshotDir);
        Path copy = snapshotDir.resolve("sonde-agent.jar");
        // The build may be rewriting the jar right now: copy until the copy is a whole, valid jar.
        String problem = null;
        for (int attempt = 0; attempt < 15; attempt++) {
            Files.copy(jar, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            problem = validJar(copy);
            if (problem == null) {
                return copy.toAbsolutePath();
            }
            try {
                Thread.sleep(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new IOException("Sonde agent jar " + jar + " is not a valid jar (being rebuilt?): " + problem);
    }

    /** Null when every entry of the jar reads back with a good CRC, else the problem. */
    private static String validJar(Path jar) {
        try (java.util.jar.JarFile file = new java.util.jar.JarFile(jar.toFile(), true)) {
            java.util.Enumeration<java.util.jar.JarEntry> entries = file.entries();
            byte[] buffer = new byte[1 << 16];
            boolean premain = file.getManifest() != null
                    && file.getManifest().getMainAttributes().getValue("Premain-Class") != null;
            while (entries.hasMoreElements()) {
                try (java.io.InputStream in = file.getInputStream(entries.nextElement())) {
                    while (in.read(buffer) >= 0) {
                        // reading to the end checks the entry's CRC
                    }
                }
            }
            return premain ? null : "no Premain-Class in its manifest";
        } catch (IOException | RuntimeException e) {
            return e.toString();
        }
    }

    /** The agent jar the runs use (after {@link #prepare()}). */
    public Path agentJar() {
        return agent;
    }

    @Override
    public RunSetup setup(Phase phase, RunContext context) throws IOException {
        List<String> agentOptions = new ArrayList<>();
        agentOptions.add("include=" + INCLUDE);
        switch (phase) {
            case DEACTIVATED -> {
                // The agent has no option to start with probes off, so the harness holds the
                // application after main, switches every probe off through the agent's MBean, and
                // releases it. The file writer then must stay empty: that is checked.
                Path dir = Files.createDirectories(context.runDir().resolve("sonde-data"));
                agentOptions.add("writer=file");
                agentOptions.add("file.dir=" + dir);
                agentOptions.add("jmx=on");
                return new AgentRun(options(agentOptions)) {
                    @Override
                    public boolean holdsStart() {
                        return true;
                    }

                    @Override
                    public void started(long pid) throws IOException {
                        ProbeSwitch.disable(pid, "*", 60_000);
                    }

                    @Override
                    public RecordCount countRecords() {
                        RecordCount c = SondeRecordCounter.count(dir, PROBE_MARKER);
                        String note = "probes switched off through JMX before the first call; file writer checked empty";
                        return new RecordCount(c.written(), c.reason() == null ? note : note + "; " + c.reason());
                    }
                };
            }
            case DISCARD -> {
                agentOptions.add("writer=discard");
                return new AgentRun(options(agentOptions)) {
                    @Override
                    public RecordCount countRecords() {
                        return RecordCount.unknown("discard writer: nothing to count");
                    }
                };
            }
            case FILE -> {
                Path dir = Files.createDirectories(context.runDir().resolve("sonde-data"));
                agentOptions.add("writer=file");
                agentOptions.add("file.dir=" + dir);
                return new AgentRun(options(agentOptions)) {
                    @Override
                    public RecordCount countRecords() {
                        return SondeRecordCounter.count(dir, PROBE_MARKER);
                    }
                };
            }
            case TCP -> {
                Path dir = Files.createDirectories(context.runDir().resolve("sonde-received"));
                List<String> failures = new CopyOnWriteArrayList<>();
                Receiver receiver = Receiver.start(0, new Archive(dir), new ReceiverListener() {
                    @Override
                    public void failed(String peer, long offset, String problem, StreamSummary stream) {
                        failures.add(peer + " at byte " + offset + ": " + problem);
                    }
                });
                agentOptions.add("writer=tcp");
                agentOptions.add("tcp.host=127.0.0.1");
                agentOptions.add("tcp.port=" + receiver.port());
                return new AgentRun(options(agentOptions)) {
                    @Override
                    public RecordCount countRecords() {
                        // The agent's JVM has exited, so its socket is closed; let the receiver
                        // store what is still in flight before stopping it.
                        long deadline = System.currentTimeMillis() + 30_000;
                        while (receiver.status().openConnections() > 0 && System.currentTimeMillis() < deadline) {
                            try {
                                Thread.sleep(20);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                break;
                            }
                        }
                        receiver.stop();
                        RecordCount count = SondeRecordCounter.count(dir, PROBE_MARKER);
                        if (failures.isEmpty()) {
                            return count;
                        }
                        String reason = "receiver: " + String.join("; ", failures)
                                + (count.reason() == null ? "" : "; " + count.reason());
                        return new RecordCount(count.written(), reason);
                    }

                    @Override
                    public void close() {
                        receiver.stop();
                    }
                };
            }
            default -> throw new IllegalArgumentException("phase " + phase.label() + " has no Sonde setup");
        }
    }

    /** A run of the application under the Sonde agent: its JVM options and the agent's problem check. */
    private abstract static class AgentRun implements RunSetup {
        private final List<String> jvm;

        AgentRun(List<String> jvm) {
            this.jvm = jvm;
        }

        @Override
        public List<String> jvmOptions() {
            return jvm;
        }

        @Override
        public String problemIn(String log) {
            return agentProblem(log);
        }
    }

    /** The agent reports rejected options on stderr and then runs unmonitored: such a run is invalid. */
    public static String agentProblem(String log) {
        for (String line : log.split("\n")) {
            if (line.startsWith("sonde-agent:") && (line.contains("bad options") || line.contains("unknown option")
                    || line.contains("unmonitored"))) {
                return "Sonde agent: " + line.substring("sonde-agent:".length()).trim();
            }
        }
        return null;
    }

    private List<String> options(List<String> agentOptions) {
        return List.of("-javaagent:" + agent + "=" + String.join(",", agentOptions));
    }
}
