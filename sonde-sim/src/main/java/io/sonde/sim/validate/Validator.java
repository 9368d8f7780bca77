package io.sonde.sim.validate;

import io.sonde.sim.cpu.SchedulerKind;
import io.sonde.sim.model.MiddlewareConfig;
import io.sonde.sim.model.MiddlewareModel;
import io.sonde.sim.model.SimulationResult;
import io.sonde.sim.model.Strategy;
import io.sonde.sim.profile.CalibrationProfile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Re-runs the validation experiments of the thesis (sections 5.3 and 5.4) with Sonde's models and
 * compares them with the measurements of Tables 5.1-5.7, beside the error of the thesis' own
 * simulator (DAPS with its Linux 2.4 scheduler) on the same rows.
 *
 * <ul>
 *   <li>Tables 5.1-5.4: thread-pool, one connection, Poisson arrivals at 100 requests/s, 15000
 *       requests, 5 ms deterministic servant CPU demand, 1-10 dispatcher threads.</li>
 *   <li>Tables 5.5-5.7: thread-per-client, 1-64 closed clients, 200 requests each, exponential
 *       servant demand of 0.5 ms CPU, 5 ms CPU or a 50 ms delay.</li>
 * </ul>
 * Everything runs with one calibration profile and the Linux 2.4 scheduler; the section 5.3 runs
 * set the servant clock to {@code cpu}, the section 5.4 runs take it from the profile.
 */
public final class Validator {

    /**
     * Settings of a validation run.
     *
     * @param profile the calibration
     * @param replications replications per simulated row
     * @param seed experiment seed
     * @param openRequests requests per run of Tables 5.1-5.4 (the thesis used 15000)
     * @param requestsPerClient requests per client of Tables 5.5-5.7 (the thesis used 200)
     * @param minDurationMs minimum simulated duration of the closed runs (the thesis: 45 s)
     */
    public record Settings(CalibrationProfile profile, int replications, long seed, int openRequests,
            int requestsPerClient, double minDurationMs) {

        /** The full settings: the thesis' request counts and 45 s minimum, 10 replications. */
        public static Settings full(CalibrationProfile p) {
            return new Settings(p, 10, 1, 15000, 200, 45_000);
        }

        /** Quicker settings: 6 replications (the thesis' request counts and 45 s minimum). */
        public static Settings quick(CalibrationProfile p) {
            return new Settings(p, 6, 1, 15000, 200, 45_000);
        }
    }

    /** The outcome for one table. */
    public record TableResult(String table, List<ThesisTables.Row> rows, double[] sonde, double[] sondeCi,
            double sondeError, double dapsError) {
        /** Whether Sonde's error is at or below DAPS L24's. */
        public boolean accepted() {
            return sondeError <= dapsError;
        }
    }

    private final Settings settings;
    private final ThesisTables tables = ThesisTables.load();

    /** A validator with the given settings. */
    public Validator(Settings settings) {
        this.settings = settings;
    }

    /** Runs every table and returns the results in table order. */
    public List<TableResult> run() {
        return runTables(null);
    }

    /** Runs the tables whose id occurs in {@code only} (all when null), in table order. */
    public List<TableResult> runTables(String only) {
        Map<String, SimulationResult> cache = new TreeMap<>();
        List<TableResult> out = new ArrayList<>();
        for (Map.Entry<String, List<ThesisTables.Row>> e : tables.byTable().entrySet()) {
            if (only != null && !only.contains(e.getKey())) {
                continue;
            }
            List<ThesisTables.Row> rows = e.getValue();
            double[] sonde = new double[rows.size()];
            double[] ci = new double[rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                ThesisTables.Row row = rows.get(i);
                String key = runKey(row);
                SimulationResult r = cache.computeIfAbsent(key, k -> simulate(row));
                SimulationResult.Estimate est = r.get(row.measure());
                sonde[i] = est == null ? Double.NaN : est.mean();
                ci[i] = est == null ? Double.NaN : est.ci95();
            }
            out.add(new TableResult(e.getKey(), rows, sonde, ci, ThesisTables.meanAbsRelError(rows, sonde),
                    ThesisTables.dapsError(rows)));
        }
        return out;
    }

    /** The thesis tables this validator compares against. */
    public ThesisTables tables() {
        return tables;
    }

    private static String runKey(ThesisTables.Row row) {
        String t = row.table();
        String group = switch (t) {
            case "5.1", "5.2", "5.3", "5.4" -> "pool";
            default -> t;
        };
        return group + "/" + row.x();
    }

    /** The simulation behind one row. */
    SimulationResult simulate(ThesisTables.Row row) {
        return MiddlewareModel.run(config(row.table(), row.x()));
    }

    /** The model configuration of a table at x (dispatchers or clients). */
    public MiddlewareConfig config(String table, int x) {
        Settings s = settings;
        return switch (table) {
            // Section 5.3's servant spent its 5 ms as CPU time: 5.3.2 measured 5.6 ms of dispatcher CPU
            // per request including it, and with one dispatcher its 1st phase (6.28 ms) exceeds that
            // by the receiver's preemptions (docs/simulator.md, "Validation").
            case "5.1", "5.2", "5.3", "5.4" -> new MiddlewareConfig(Strategy.THREAD_POOL, 0, x, 5.0, false, false, 0,
                    100.0 / 1000.0, s.openRequests(), 1, 1, SchedulerKind.LINUX24, s.profile(), s.seed(), s.replications())
                    .withServantClock("cpu");
            case "5.5" -> closed(x, 0.5, false);
            case "5.6" -> closed(x, 5.0, false);
            case "5.7" -> closed(x, 50.0, true);
            default -> throw new IllegalArgumentException("unknown table " + table);
        };
    }

    private MiddlewareConfig closed(int clients, double servant, boolean delay) {
        Settings s = settings;
        // The thesis' runs lasted at least 45 s (5.4.1), which matters for few clients.
        return new MiddlewareConfig(Strategy.THREAD_PER_CLIENT, clients, clients, servant, delay, true,
                s.requestsPerClient(), 0, 0, 0, 1, SchedulerKind.LINUX24, s.profile(), s.seed(), s.replications(), s.minDurationMs());
    }

    /** Every row: experiment, DAPS L24 and Sonde (mean ± 95 % half-width). */
    public static String rowsReport(List<TableResult> results) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%-6s %-22s %4s %10s %10s %10s %8s%n", "table", "measure", "x", "experiment", "daps-l24", "sonde", "±ci95"));
        for (TableResult r : results) {
            for (int i = 0; i < r.rows().size(); i++) {
                ThesisTables.Row row = r.rows().get(i);
                sb.append(String.format("%-6s %-22s %4d %10.2f %10.2f %10.2f %8.2f%n", r.table(), row.measure(), row.x(),
                        row.experiment(), row.dapsL24(), r.sonde()[i], r.sondeCi()[i]));
            }
        }
        return sb.toString();
    }

    /** A plain-text report: per table Sonde's and DAPS L24's mean absolute relative error. */
    public static String report(List<TableResult> results) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%-6s %-40s %10s %10s %s%n", "table", "measures", "sonde", "daps-l24", "verdict"));
        for (TableResult r : results) {
            Map<String, Boolean> measures = new LinkedHashMap<>();
            for (ThesisTables.Row row : r.rows()) {
                measures.put(row.measure(), true);
            }
            sb.append(String.format("%-6s %-40s %9.1f%% %9.1f%% %s%n", r.table(), String.join(", ", measures.keySet()),
                    100 * r.sondeError(), 100 * r.dapsError(), r.accepted() ? "ok" : "WORSE"));
        }
        return sb.toString();
    }
}
