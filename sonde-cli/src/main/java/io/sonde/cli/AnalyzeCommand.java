package io.sonde.cli;

import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.TextReport;
import io.sonde.analysis.correction.Calibration;
import io.sonde.analysis.correction.ProbeCost;
import io.sonde.analysis.demand.DemandCollector;
import io.sonde.analysis.demand.DemandReport;
import io.sonde.analysis.export.ChromeTraceWriter;
import io.sonde.analysis.export.CsvExport;
import io.sonde.analysis.export.JsonReport;
import io.sonde.analysis.export.PlotExport;
import io.sonde.analysis.export.otlp.OtlpHttpSender;
import io.sonde.analysis.export.otlp.OtlpSpanExport;
import io.sonde.analysis.input.LogSource;
import io.sonde.analysis.progress.TerminalProgressBar;
import io.sonde.analysis.tree.TreePrinter;
import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sonde analyze}: call trees with wall and CPU time, per-operation statistics, hot spots,
 * exports (JSON, CSV, Chrome trace, PNG plots) and service demands, from binary logs, in one
 * streaming pass. See docs/analysis.md.
 */
@Command(name = "analyze", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Rebuilds call trees from binary logs and computes statistics, exports and service demands.",
            "  sonde analyze sonde-data --trees 3 --top 10",
            "  sonde analyze logs/ --thread 'pool-.*' --skip-warmup 10 --skip-cooldown 5 --json out.json --plots plots/",
            "  sonde analyze logs/ --demands-json demands.json --group workers=^worker- --group io=^io-",
            "Exit code: 0 ok; 1 when the input has problems: damage (read past), missing frames, a trailer count that differs (results are still written, marked partial)."})
public final class AnalyzeCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "log files, folders of segments, or folders of several agents")
    List<Path> inputs;

    @Option(names = "--thread", paramLabel = "REGEX", description = "only threads whose name contains a match")
    String threadPattern;

    @Option(names = "--operation", paramLabel = "REGEX", description = "only operations whose name contains a match (trees: those containing one)")
    String operationPattern;

    @Option(names = "--from", paramLabel = "SECONDS", description = "window start, seconds after the log start")
    Double from;

    @Option(names = "--to", paramLabel = "SECONDS", description = "window end, seconds after the log start")
    Double to;

    @Option(names = "--skip-warmup", paramLabel = "SECONDS", defaultValue = "0", description = "ignore executions starting in the first SECONDS of the log")
    double skipWarmup;

    @Option(names = "--skip-cooldown", paramLabel = "SECONDS", defaultValue = "0", description = "ignore executions starting in the last SECONDS of the log")
    double skipCooldown;

    @Option(names = "--trees", paramLabel = "N", defaultValue = "3", description = "trace trees to print (default ${DEFAULT-VALUE}; 0: none)")
    int trees;

    @Option(names = "--top", paramLabel = "N", defaultValue = "10", description = "hot spots and statistics rows to print (default ${DEFAULT-VALUE})")
    int top;

    @Option(names = "--bucket", paramLabel = "SECONDS", description = "timeline bucket width (default: 1 s, wider for long logs)")
    Double bucketSeconds;

    @Option(names = "--timeline", description = "print calls per second over time for the top operations")
    boolean timeline;

    @Option(names = "--json", paramLabel = "FILE", description = "write the full result as JSON (schema sonde-analysis/1)")
    Path json;

    @Option(names = "--csv", paramLabel = "FILE", description = "write per-operation statistics as CSV")
    Path csv;

    @Option(names = "--chrome", paramLabel = "FILE", description = "write every execution in the Chrome trace-event format (open in Perfetto)")
    Path chrome;

    @Option(names = "--otlp", paramLabel = "URL", description = "send every execution as an OTLP span (OTLP/HTTP protobuf) to URL, "
            + "e.g. http://127.0.0.1:4318/v1/traces; prints how many spans were sent and accepted")
    URI otlp;

    @Option(names = "--otlp-batch", paramLabel = "N", description = "spans per OTLP request (default ${DEFAULT-VALUE})")
    int otlpBatch = 512;

    @Option(names = "--plots", paramLabel = "DIR", description = "write PNG plots: response time over time, latency histogram")
    Path plots;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Demands demands = new Demands();

    /** Where service demands go: stdout or a file, not both. */
    static final class Demands {
        @Option(names = "--demands", description = "print service demands per thread group and operation as JSON (schema sonde-demands/1) "
                + "on stdout; the text report then goes to stderr")
        boolean toStdout;

        @Option(names = "--demands-json", paramLabel = "FILE", description = "write the service demands to FILE instead")
        Path file;
    }

    @Option(names = "--group", paramLabel = "NAME=REGEX", description = "a thread group for --demands (repeatable; first match wins)")
    List<String> groups = new ArrayList<>();

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Correction correction = new Correction();

    /** Perturbation correction: a given probe cost, or one measured here; not both. */
    static final class Correction {
        @Option(names = "--probe-cost", paramLabel = "WALL_NS[,CPU_NS]", description = "perturbation correction with this cost per probe pair")
        String probeCost;

        @ArgGroup(exclusive = false, multiplicity = "0..1")
        Calibrate calibrate;
    }

    /** {@code --calibrate [--calibrate-cpu]}. */
    static final class Calibrate {
        @Option(names = "--calibrate", required = true, description = "measure the probe-pair cost with the Sonde pipeline in this JVM and correct for it")
        boolean calibrate;

        @Option(names = "--calibrate-cpu", description = "with --calibrate: probes record thread CPU time, as in logs made with cpu.time=on")
        boolean cpu;
    }

    @Option(names = "--no-progress", description = "no progress bar")
    boolean noProgress;

    @Override
    public Integer call() throws IOException {
        PrintStream out = System.out;
        // With demands on stdout, the human-readable report goes to stderr so the JSON stays clean.
        PrintStream text = demands.toStdout ? System.err : out;
        AnalysisOptions o = options(text);
        LogSource source;
        try {
            source = new LogSource(inputs);
        } catch (IOException e) {
            throw new UserError(e.getMessage());
        }
        if ((from != null || to != null || skipWarmup > 0 || skipCooldown > 0) && source.timeRange() == null) {
            throw new UserError("the input holds no readable frame, so --from/--to/--skip-warmup/--skip-cooldown have no log time to refer to");
        }
        o.progress = noProgress ? o.progress : TerminalProgressBar.forConsole(System.err, "reading");
        AnalysisResult r;
        ChromeTraceWriter chromeWriter = null;
        OtlpHttpSender otlpSender = otlpSender();
        OtlpSpanExport otlpExport = null;
        OtlpHttpSender.Outcome otlpOutcome = null;
        try {
            if (chrome != null) {
                chromeWriter = new ChromeTraceWriter(chrome, source.timeRange() != null ? source.timeRange().startNanos() : 0);
                o.extraListeners.add(chromeWriter);
            }
            if (otlpSender != null) {
                otlpExport = new OtlpSpanExport(otlpSender, otlpBatch);
                o.extraListeners.add(otlpExport);
            }
            r = Analyzer.run(source, o);
            if (otlpExport != null) otlpExport.flush();
        } catch (UncheckedIOException e) {
            throw new UserError("writing " + chrome + ": " + e.getCause().getMessage());
        } finally {
            if (chromeWriter != null) chromeWriter.close();
            if (otlpSender != null) otlpOutcome = otlpSender.finish();
        }

        TextReport.summary(r, text);
        text.println();
        if (trees > 0 && !r.joinedTrees().isEmpty()) new TreePrinter(text).print(r.joinedTrees());
        if (top > 0) {
            TextReport.statistics(r, text, top);
            text.println();
            TextReport.hotSpots(r, text, top);
        }
        if (timeline) {
            text.println();
            TextReport.timeline(r, text, Math.max(1, Math.min(top, 10)), 12);
        }
        try {
            if (json != null) {
                JsonReport.write(r, json);
                text.println("JSON: " + json);
            }
            if (csv != null) {
                CsvExport.write(r, csv);
                text.println("CSV: " + csv);
            }
            if (chrome != null) text.println("Chrome trace: " + chrome);
            if (otlpOutcome != null) {
                var x = otlpOutcome;
                text.printf(Locale.ROOT, "OTLP: %d spans sent, %d accepted (%d rejected, %d dropped; %d requests, %d retries) to %s%n",
                        x.sent(), x.accepted(), x.rejected(), x.dropped(), x.requests(), x.retries(), otlp);
            }
            if (plots != null) {
                for (Path p : PlotExport.write(r, plots, Math.max(1, Math.min(top, 8)))) text.println("Plot: " + p);
            }
            if (demands.toStdout || demands.file != null) {
                if (demands.toStdout) {
                    DemandReport.write(r, new java.io.FilterOutputStream(out) {
                        @Override
                        public void close() throws IOException {
                            flush(); // keep stdout open
                        }
                    });
                    out.println();
                } else {
                    DemandReport.write(r, demands.file);
                    text.println("Demands: " + demands.file);
                }
            }
        } catch (IOException e) {
            throw new UserError("writing output: " + e.getMessage());
        }
        if (r.partial()) {
            for (var p : r.problems()) if (p.error()) System.err.println("sonde analyze: " + p);
            System.err.println("sonde analyze: results are PARTIAL (marked so in every export)");
            return 1;
        }
        if (otlpOutcome != null && !otlpOutcome.complete()) {
            throw new UserError("OTLP export to " + otlp + ": " + (otlpOutcome.submitted() - otlpOutcome.accepted()) + " of "
                    + otlpOutcome.submitted() + " spans not accepted: " + otlpOutcome.problem());
        }
        return 0;
    }

    /** The OTLP sender for {@code --otlp}, or null without it. */
    private OtlpHttpSender otlpSender() {
        if (otlp == null) return null;
        if (otlpBatch < 1) throw new UsageError("--otlp-batch must be at least 1: " + otlpBatch);
        try {
            return new OtlpHttpSender(OtlpHttpSender.Settings.of(otlp));
        } catch (IllegalArgumentException e) {
            throw new UsageError("--otlp: " + e.getMessage());
        }
    }

    private AnalysisOptions options(PrintStream text) {
        AnalysisOptions o = new AnalysisOptions();
        o.threadPattern = regex("--thread", threadPattern);
        o.operationPattern = regex("--operation", operationPattern);
        if (from != null && from < 0) throw new UsageError("--from must not be negative: " + from);
        if (to != null && to < 0) throw new UsageError("--to must not be negative: " + to);
        if (from != null && to != null && to <= from) throw new UsageError("--to (" + to + ") must be after --from (" + from + ")");
        if (skipWarmup < 0) throw new UsageError("--skip-warmup must not be negative: " + skipWarmup);
        if (skipCooldown < 0) throw new UsageError("--skip-cooldown must not be negative: " + skipCooldown);
        if (trees < 0) throw new UsageError("--trees must not be negative: " + trees);
        if (top < 0) throw new UsageError("--top must not be negative: " + top);
        o.fromSeconds = from;
        o.toSeconds = to;
        o.skipWarmupSeconds = skipWarmup;
        o.skipCooldownSeconds = skipCooldown;
        o.keepTrees = trees;
        if (bucketSeconds != null) {
            if (!(bucketSeconds > 0)) throw new UsageError("--bucket must be positive: " + bucketSeconds);
            o.bucketNanos = Math.max(1, Math.round(bucketSeconds * 1e9));
        }
        for (String g : groups) {
            int eq = g.indexOf('=');
            if (eq <= 0 || eq == g.length() - 1) throw new UsageError("--group must be NAME=REGEX, got '" + g + "'");
            o.groups.add(new DemandCollector.Group(g.substring(0, eq), regex("--group " + g.substring(0, eq), g.substring(eq + 1))));
        }
        if (correction.probeCost != null) o.probeCost = parseProbeCost(correction.probeCost);
        if (correction.calibrate != null) {
            boolean calibrateCpu = correction.calibrate.cpu;
            Calibration.Result c = calibrate(calibrateCpu);
            text.printf(Locale.ROOT, "Calibration: %.1f ns wall, %.1f ns CPU per probe pair (median of %d rounds of %d calls, cpu.time=%s)%n",
                    c.wallNanosPerPair(), c.cpuNanosPerPair(), c.rounds(), c.callsPerRound(), calibrateCpu ? "on" : "off");
            o.probeCost = c.cost();
        }
        return o;
    }

    static ProbeCost parseProbeCost(String s) {
        String[] parts = s.split(",", -1);
        try {
            if (parts.length > 2) throw new NumberFormatException();
            long wall = Long.parseLong(parts[0].trim());
            long cpu = parts.length == 2 ? Long.parseLong(parts[1].trim()) : 0;
            if (wall < 0 || cpu < 0) throw new NumberFormatException();
            return new ProbeCost(wall, cpu);
        } catch (NumberFormatException e) {
            throw new UsageError("--probe-cost must be WALL_NS or WALL_NS,CPU_NS with whole non-negative numbers, got '" + s + "'");
        }
    }

    private static Pattern regex(String option, String value) {
        if (value == null) return null;
        try {
            return Pattern.compile(value);
        } catch (PatternSyntaxException e) {
            throw new UsageError(option + ": not a valid regular expression: " + e.getDescription() + " in '" + value + "'");
        }
    }

    /**
     * Runs the Sonde pipeline in this JVM (file writer into a temporary folder, deleted after) and
     * times a loop of empty monitored executions nested in a monitored root against the same loop
     * without probes.
     */
    static Calibration.Result calibrate(boolean cpu) {
        Path dir;
        try {
            dir = Files.createTempDirectory("sonde-calibration");
        } catch (IOException e) {
            throw new UserError("calibration: cannot create a temporary folder: " + e.getMessage());
        }
        // Explicit settings only: SONDE_* variables or sonde.* properties meant for an application
        // (a TCP writer, say) must not change what the calibration measures.
        try (Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "file", "file.dir", dir.toString(), "cpu.time", cpu ? "on" : "off")))) {
            MethodProbe root = m.methodProbe("sonde.calibration.Root", "()V");
            MethodProbe leaf = m.methodProbe("sonde.calibration.Leaf", "()V");
            Calibration.Loop monitored = n -> {
                long sum = 0;
                boolean r = root.enter();
                for (int i = 0; i < n; i++) {
                    boolean e = leaf.enter();
                    sum += i;
                    leaf.exit(e);
                }
                root.exit(r);
                return sum;
            };
            Calibration.Loop plain = n -> {
                long sum = 0;
                for (int i = 0; i < n; i++) sum += i;
                return sum;
            };
            return Calibration.measure(monitored, plain, 100_000, 11);
        } catch (RuntimeException e) {
            // e.g. another monitor already running in this JVM
            throw new UserError("calibration: " + e.getMessage());
        } finally {
            deleteTree(dir);
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A leftover temporary folder is harmless.
        }
    }
}
