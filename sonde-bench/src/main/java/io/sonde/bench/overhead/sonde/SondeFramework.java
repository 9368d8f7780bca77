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

/**
 * Sonde's own agent ({@code sonde-agent.jar}), instrumenting the benchmarked method. The jar is
 * taken from {@code --sonde-agent} or found next to the build ({@code sonde-agent/target}).
 */
public final class SondeFramework implements Framework {

    /** The pattern of the benchmarked method in the agent's include syntax. */
    static final String INCLUDE = "io.sonde.bench.overhead.app.MonitoredClass.monitoredMethod";

    private final Path explicitJar;
    private Path agent;

    /** Sonde, with the agent jar at {@code jar} or (when null) searched next to the build. */
    public SondeFramework(Path jar) {
        this.explicitJar = jar;
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
            agent = explicitJar.toAbsolutePath();
            return;
        }
        for (Path p : candidates()) {
            if (Files.isRegularFile(p)) {
                agent = p.toAbsolutePath().normalize();
                return;
            }
        }
        throw new IOException("Sonde agent jar not found (looked at " + candidates()
                + "); build it with `mvn -pl sonde-agent -am package` or pass --sonde-agent JAR");
    }

    @Override
    public RunSetup setup(Phase phase, RunContext context) throws IOException {
        List<String> agentOptions = new ArrayList<>();
        agentOptions.add("include=" + INCLUDE);
        switch (phase) {
            case DEACTIVATED -> {
                agentOptions.add("probes=off");
                return RunSetup.of(options(agentOptions), Map.of(), RecordCount.unknown("probes switched off: nothing is written"));
            }
            case DISCARD -> {
                agentOptions.add("writer=discard");
                return RunSetup.of(options(agentOptions), Map.of(), RecordCount.unknown("discard writer: nothing to count"));
            }
            case FILE -> {
                Path dir = Files.createDirectories(context.runDir().resolve("sonde-data"));
                agentOptions.add("writer=file");
                agentOptions.add("writer.file.dir=" + dir);
                return RunSetup.of(options(agentOptions), Map.of(), RecordCount.unknown("Sonde reader not wired in yet"));
            }
            case TCP -> {
                return RunSetup.of(options(agentOptions), Map.of(), RecordCount.unknown("Sonde receiver not wired in yet"));
            }
            default -> throw new IllegalArgumentException("phase " + phase.label() + " has no Sonde setup");
        }
    }

    private List<String> options(List<String> agentOptions) {
        return List.of("-javaagent:" + agent + "=" + String.join(",", agentOptions));
    }
}
