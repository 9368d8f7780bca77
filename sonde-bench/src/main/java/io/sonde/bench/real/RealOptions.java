package io.sonde.bench.real;

import io.sonde.bench.common.OptionArgs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Options of {@code sonde bench real}. Parse with {@link #parse(String[])}; a bad option gives an
 * {@link IllegalArgumentException} whose message names the option and the problem.
 *
 * @param quick        CI settings: small workloads, one run
 * @param json         where to write the JSON results, or null for {@code OUT/real.json}
 * @param workloads    workloads to run, in order
 * @param frameworks   configurations to run per workload: {@code none}, {@code sonde}, {@code kieker}
 * @param runs         JVM runs per configuration
 * @param jdk          the JDK home the workloads run on
 * @param agentOptions extra Sonde agent options appended to the benchmark's own ({@code K=V,...}),
 *                     e.g. {@code budget=5}; empty for none
 * @param out          output directory (per-run folders and logs)
 * @param sondeAgent   the Sonde agent jar, or null to look for it next to the build
 * @param cache        where the libraries and Kieker's agent are cached
 * @param runTimeoutSeconds a run taking longer is killed and reported as cut
 * @param maxBytes     a run whose monitoring output grows beyond this is killed and reported as cut
 * @param h2Ops        operations of the h2 workload
 * @param httpRequests requests of the http workload
 * @param jsonOps      operations of the json workload
 * @param budgetState  the Sonde runs keep the overhead budget's state ({@code budget.state}) per workload,
 *                     learned in one unmeasured run before the measured ones
 */
public record RealOptions(boolean quick, Path json, List<RealWorkload> workloads, List<String> frameworks, int runs,
        Path jdk, String agentOptions, Path out, Path sondeAgent, Path cache, int runTimeoutSeconds, long maxBytes,
        long h2Ops, long httpRequests, long jsonOps, boolean budgetState) {

    /** The configurations this benchmark knows, in the order they run. */
    public static final List<String> FRAMEWORKS = List.of("none", "sonde", "kieker");

    /** Usage text printed after a bad option. */
    public static final String USAGE = String.join("\n",
            "usage: sonde bench real [options]",
            "  --quick                CI run: 200 operations (H2, JSON), 200 requests, 1 run",
            "  --json FILE            write the results as a JSON array (default OUT/real.json)",
            "  --workloads LIST       h2,http,json (default h2,http)",
            "  --frameworks LIST      none,sonde,kieker (default all three)",
            "  --runs N               JVM runs per configuration (default 3; 1 with --quick)",
            "  --jdk PATH             JDK home the workloads run on (default: the running JDK)",
            "  --agent-options K=V,.. extra Sonde agent options, e.g. budget=5",
            "  --budget-state         with budget=: one unmeasured Sonde run per workload learns the budget's",
            "                         state (budget.state), and every measured Sonde run starts from it",
            "  --out DIR              output directory (default target/real)",
            "  --sonde-agent JAR      Sonde agent jar (default sonde-agent/target/sonde-agent.jar)",
            "  --cache DIR            download cache (default ~/.cache/sonde/bench)",
            "  --run-timeout S        kill a run after S seconds (default 600; 120 with --quick)",
            "  --max-bytes N          kill a run whose output exceeds N bytes (default 4000000000; 500000000 with --quick)",
            "  --h2-ops N             H2 operations (default 2000; 200 with --quick)",
            "  --http-requests N      HTTP requests (default 5000; 200 with --quick)",
            "  --json-ops N           JSON operations (default 100000; 200 with --quick)");

    /** Parses the arguments that follow {@code real}. */
    public static RealOptions parse(String[] args) {
        boolean quick = false;
        Path json = null;
        List<RealWorkload> workloads = RealWorkload.DEFAULT;
        List<String> frameworks = FRAMEWORKS;
        Integer runs = null;
        Path jdk = Path.of(System.getProperty("java.home"));
        String agentOptions = "";
        Path out = Path.of("target", "real");
        Path sondeAgent = null;
        Path cache = Path.of(System.getProperty("user.home"), ".cache", "sonde", "bench");
        Integer timeout = null;
        Long maxBytes = null;
        Long h2Ops = null;
        Long httpRequests = null;
        Long jsonOps = null;
        boolean budgetState = false;
        OptionArgs arguments = new OptionArgs(args);
        while (arguments.next()) {
            String option = arguments.option();
            if (option.equals("--quick")) {
                quick = true;
                continue;
            }
            if (option.equals("--budget-state")) {
                budgetState = true;
                continue;
            }
            String value = arguments.value();
            switch (option) {
                case "--json" -> json = Path.of(value);
                case "--workloads" -> workloads = parseWorkloads(value);
                case "--frameworks" -> frameworks = parseFrameworks(value);
                case "--runs" -> runs = (int) OptionArgs.parseLong(option, value, 1);
                case "--jdk" -> jdk = OptionArgs.checkJdk(value);
                case "--agent-options" -> agentOptions = checkAgentOptions(value);
                case "--out" -> out = Path.of(value);
                case "--sonde-agent" -> sondeAgent = Path.of(value);
                case "--cache" -> cache = Path.of(value);
                case "--run-timeout" -> timeout = (int) OptionArgs.parseLong(option, value, 1);
                case "--max-bytes" -> maxBytes = OptionArgs.parseLong(option, value, 1);
                case "--h2-ops" -> h2Ops = OptionArgs.parseLong(option, value, 1);
                case "--http-requests" -> httpRequests = OptionArgs.parseLong(option, value, 1);
                case "--json-ops" -> jsonOps = OptionArgs.parseLong(option, value, 1);
                default -> throw new IllegalArgumentException("unknown option " + option);
            }
        }
        RealOptions parsed = new RealOptions(quick, json, workloads, frameworks, runs != null ? runs : quick ? 1 : 3, jdk,
                agentOptions, out, sondeAgent, cache, timeout != null ? timeout : quick ? 120 : 600,
                maxBytes != null ? maxBytes : quick ? 500_000_000L : 4_000_000_000L,
                h2Ops != null ? h2Ops : quick ? 200 : 2_000, httpRequests != null ? httpRequests : quick ? 200 : 5_000,
                jsonOps != null ? jsonOps : quick ? 200 : 100_000, budgetState);
        if (budgetState && !agentOptions.contains("budget=")) {
            throw new IllegalArgumentException("option --budget-state needs a budget in --agent-options (e.g. budget=5)");
        }
        return parsed;
    }

    /** The size of {@code workload} in these options (operations or requests). */
    public long size(RealWorkload workload) {
        return switch (workload) {
            case H2 -> h2Ops;
            case HTTP -> httpRequests;
            case JSON -> jsonOps;
        };
    }

    /** The JSON file to write. */
    public Path jsonFile() {
        return json != null ? json : out.resolve("real.json");
    }

    private static List<RealWorkload> parseWorkloads(String value) {
        Set<RealWorkload> set = new LinkedHashSet<>();
        for (String part : value.split(",")) {
            try {
                set.add(RealWorkload.parse(part));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("option --workloads: " + e.getMessage());
            }
        }
        return new ArrayList<>(set);
    }

    private static List<String> parseFrameworks(String value) {
        Set<String> set = new LinkedHashSet<>();
        for (String part : value.split(",")) {
            String name = part.trim().toLowerCase(Locale.ROOT);
            if (!FRAMEWORKS.contains(name)) {
                throw new IllegalArgumentException("option --frameworks: unknown framework '" + part
                        + "' (expected none, sonde, kieker)");
            }
            set.add(name);
        }
        // always in the order none, sonde, kieker: the no-agent run is the reference of the others
        List<String> ordered = new ArrayList<>(FRAMEWORKS);
        ordered.retainAll(set);
        return ordered;
    }

    /** Agent options must be K=V pairs; the ones the benchmark sets itself may not be overridden. */
    private static String checkAgentOptions(String value) {
        for (String pair : value.split(",")) {
            int eq = pair.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("option --agent-options: '" + pair + "' is not KEY=VALUE");
            }
            String key = pair.substring(0, eq).trim();
            if (List.of("include", "writer", "file.dir", "budget.state").contains(key)) {
                throw new IllegalArgumentException("option --agent-options: " + key
                        + " is set by the benchmark (include per workload, the file writer into the run's folder,"
                        + " the budget's state with --budget-state)");
            }
        }
        return value;
    }
}
