package io.sonde.bench.overhead;

import static io.sonde.bench.common.OptionArgs.checkJdk;
import static io.sonde.bench.common.OptionArgs.parseLong;

import io.sonde.bench.common.OptionArgs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Options of {@code sonde bench overhead}. Parse with {@link #parse(String[])}; a bad option gives
 * an {@link IllegalArgumentException} whose message names the option and the problem.
 *
 * @param threads    application thread counts to run, each a separate series
 * @param calls      timed calls per thread and JVM run (the first half is warm-up)
 * @param runs       JVM runs per configuration
 * @param depth      recursion depth: monitored executions per call
 * @param methodTimeNanos busy time at the deepest level, in nanoseconds
 * @param frameworks frameworks to run: {@code sonde}, {@code kieker}, {@code otel}
 * @param phases     phases to run
 * @param jdks       JDK home directories; each configuration runs on each
 * @param quick      smoke-run settings
 * @param out        output directory
 * @param sondeAgent the Sonde agent jar, or null to look for it next to the build
 * @param cache      where Kieker's and OpenTelemetry's jars are cached
 * @param runTimeoutSeconds a JVM run taking longer than this is killed and reported as failed
 */
public record OverheadOptions(List<Integer> threads, long calls, int runs, int depth, long methodTimeNanos,
        List<String> frameworks, Set<Phase> phases, List<Path> jdks, boolean quick, Path out,
        Path sondeAgent, Path cache, int runTimeoutSeconds) {

    /** Frameworks this benchmark knows. */
    public static final List<String> KNOWN_FRAMEWORKS = List.of("sonde", "kieker", "otel");

    /** Defaults of a full run (chosen so that two JDKs finish in well under 20 minutes here). */
    static final long DEFAULT_CALLS = 200_000;
    static final int DEFAULT_RUNS = 3;
    static final List<Integer> DEFAULT_THREADS = List.of(1);

    /** Usage text printed by {@code --help} and after a bad option. */
    public static final String USAGE = String.join("\n",
            "usage: sonde bench overhead [options]",
            "  --threads 1,2,4        application threads, each a series of runs (default 1)",
            "  --calls N              timed calls per thread and JVM run, first half warm-up (default 200000)",
            "  --runs N               JVM runs per configuration (default 3)",
            "  --depth N              recursion depth = monitored executions per call (default 10)",
            "  --method-time NS       busy time at the deepest level in ns (default 0)",
            "  --frameworks LIST      sonde,kieker,otel (default all three)",
            "  --phases LIST          no-instrumentation,deactivated,discard,file,tcp (default all)",
            "  --jdk PATH             JDK home to run on; repeatable (default: the running JDK)",
            "  --quick                smoke run: 2000 calls, 1 run, 1 thread unless given (about a minute for all three)",
            "  --out DIR              output directory (default target/overhead)",
            "  --sonde-agent JAR      Sonde agent jar (default sonde-agent/target/sonde-agent.jar)",
            "  --cache DIR            download cache for Kieker and OpenTelemetry (default ~/.cache/sonde/bench)",
            "  --run-timeout S        kill a JVM run after S seconds (default 180)");

    /** Parses the arguments that follow {@code overhead}. */
    public static OverheadOptions parse(String[] args) {
        List<Integer> threads = null;
        Long calls = null;
        Integer runs = null;
        int depth = 10;
        long methodTime = 0;
        List<String> frameworks = new ArrayList<>(KNOWN_FRAMEWORKS);
        Set<Phase> phases = EnumSet.allOf(Phase.class);
        List<Path> jdks = new ArrayList<>();
        boolean quick = false;
        Path out = Path.of("target", "overhead");
        Path sondeAgent = null;
        Path cache = Path.of(System.getProperty("user.home"), ".cache", "sonde", "bench");
        int timeout = 180;
        OptionArgs arguments = new OptionArgs(args);
        while (arguments.next()) {
            String option = arguments.option();
            if (option.equals("--quick")) {
                quick = true;
                continue;
            }
            String value = arguments.value();
            switch (option) {
                case "--threads" -> threads = parseIntList(option, value);
                case "--calls" -> calls = parseLong(option, value, 2);
                case "--runs" -> runs = (int) parseLong(option, value, 1);
                case "--depth" -> depth = (int) parseLong(option, value, 1);
                case "--method-time" -> methodTime = parseLong(option, value, 0);
                case "--frameworks" -> frameworks = parseFrameworks(value);
                case "--phases" -> phases = parsePhases(value);
                case "--jdk" -> jdks.add(checkJdk(value));
                case "--out" -> out = Path.of(value);
                case "--sonde-agent" -> sondeAgent = Path.of(value);
                case "--cache" -> cache = Path.of(value);
                case "--run-timeout" -> timeout = (int) parseLong(option, value, 1);
                default -> throw new IllegalArgumentException("unknown option " + option);
            }
        }
        if (jdks.isEmpty()) {
            jdks.add(Path.of(System.getProperty("java.home")));
        }
        if (threads == null) {
            threads = quick ? List.of(1) : DEFAULT_THREADS;
        }
        if (calls == null) {
            calls = quick ? 2_000L : DEFAULT_CALLS;
        }
        if (runs == null) {
            runs = quick ? 1 : DEFAULT_RUNS;
        }
        if (calls / 2 * threads.stream().mapToInt(Integer::intValue).max().orElse(1) > 50_000_000L) {
            throw new IllegalArgumentException("option --calls: " + calls
                    + " calls per thread keep too many timings in memory (at most 100000000 / threads)");
        }
        return new OverheadOptions(List.copyOf(threads), calls, runs, depth, methodTime, List.copyOf(frameworks),
                phases, List.copyOf(jdks), quick, out, sondeAgent, cache, timeout);
    }

    private static List<Integer> parseIntList(String option, String value) {
        Set<Integer> list = new LinkedHashSet<>();
        for (String part : value.split(",")) {
            long v = parseLong(option, part, 1);
            if (v > 256) {
                throw new IllegalArgumentException("option " + option + ": " + v + " threads is more than 256");
            }
            list.add((int) v);
        }
        return new ArrayList<>(list);
    }

    private static List<String> parseFrameworks(String value) {
        Set<String> list = new LinkedHashSet<>();
        for (String part : value.split(",")) {
            String name = part.trim().toLowerCase(java.util.Locale.ROOT);
            if (!KNOWN_FRAMEWORKS.contains(name)) {
                throw new IllegalArgumentException("option --frameworks: unknown framework '" + part
                        + "' (expected sonde, kieker, otel)");
            }
            list.add(name);
        }
        return new ArrayList<>(list);
    }

    private static Set<Phase> parsePhases(String value) {
        Set<Phase> set = EnumSet.noneOf(Phase.class);
        for (String part : value.split(",")) {
            try {
                set.add(Phase.parse(part));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("option --phases: " + e.getMessage());
            }
        }
        return set;
    }
}
