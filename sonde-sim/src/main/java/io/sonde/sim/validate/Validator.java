package io.sonde.sim.validate;

import io.sonde.sim.cpu.SchedulerKind;
import io.sonde.sim.model.MiddlewareConfig;
import io.sonde.sim.model.MiddlewareModel;
import io.sonde.sim.model.SimulationResult;
import io.sonde.sim.model.Strategy;
import io.sonde.sim.profile.CalibrationProfile;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

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
 * Everything runs with one calibration profile, one servant clock (the profile's
 * {@code servant_cpu_clock}) and the Linux 2.4 scheduler.
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

    /**
     * Mean absolute relative errors over a set of rows of one table.
     *
     * @param rows how many rows
     * @param sonde Sonde's error (NaN without rows)
     * @param daps DAPS L24's error on the same rows (NaN without rows)
     */
    public record Errors(int rows, double sonde, double daps) {
        /**
         * {@code tie} when the two errors differ by at most the experiment's own scatter
         * ({@link ThesisTables#MEASUREMENT_SCATTER}), else {@code better} or {@code worse} for Sonde;
         * {@code none} without rows.
         */
        public String verdict() {
            if (rows == 0) {
                return "none";
            }
            if (Math.abs(sonde - daps) <= ThesisTables.MEASUREMENT_SCATTER) {
                return "tie";
            }
            return sonde < daps ? "better" : "worse";
        }

        static Errors of(List<ThesisTables.Row> all, double[] sonde, Boolean training) {
            List<ThesisTables.Row> rows = new ArrayList<>();
            List<Double> predicted = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                if (training == null || all.get(i).training() == training) {
                    rows.add(all.get(i));
                    predicted.add(sonde[i]);
                }
            }
            if (rows.isEmpty()) {
                return new Errors(0, Double.NaN, Double.NaN);
            }
            double[] p = predicted.stream().mapToDouble(Double::doubleValue).toArray();
            return new Errors(rows.size(), ThesisTables.meanAbsRelError(rows, p), ThesisTables.dapsError(rows));
        }
    }

    /**
     * The outcome for one table.
     *
     * @param training errors on the declared training rows
     * @param heldOut errors on the held-out rows
     * @param all errors on every row
     */
    public record TableResult(String table, List<ThesisTables.Row> rows, double[] sonde, double[] sondeCi,
            Errors training, Errors heldOut, Errors all) {

        /** Sonde's error on every row of the table. */
        public double sondeError() {
            return all.sonde();
        }

        /** DAPS L24's error on every row of the table. */
        public double dapsError() {
            return all.daps();
        }

        /** Whether Sonde's held-out error is not worse than DAPS L24's beyond the measurement scatter. */
        public boolean accepted() {
            return !heldOut.verdict().equals("worse");
        }
    }

    /**
     * Tables whose rows are not independent data: Table 5.3's 1st phases are Table 5.2's holding
     * times minus a few microseconds (the 2nd phase), and Table 5.4's response time is the network
     * plus the queuing and holding times of Tables 5.1-5.2 of the same runs.
     */
    static final List<String> DERIVED_TABLES = List.of("5.3", "5.4");

    /** Profile key saying what the profile's fitted values were fitted on (printed by the report). */
    public static final String FITTED_ON_KEY = "fitted_on";

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
            out.add(new TableResult(e.getKey(), rows, sonde, ci, Errors.of(rows, sonde, true), Errors.of(rows, sonde, false),
                    Errors.of(rows, sonde, null)));
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
            // One servant clock for every table: the profile's servant_cpu_clock (no per-series switch).
            case "5.1", "5.2", "5.3", "5.4" -> new MiddlewareConfig(Strategy.THREAD_POOL, 0, x, 5.0, false, false, 0,
                    100.0 / 1000.0, s.openRequests(), 1, 1, SchedulerKind.LINUX24, s.profile(), s.seed(), s.replications());
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

    /** Every row: training or held out, experiment, DAPS L24 and Sonde (mean ± 95 % half-width). */
    public static String rowsReport(List<TableResult> results) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%-6s %-22s %4s %-8s %10s %10s %10s %8s%n", "table", "measure", "x", "rows", "experiment", "daps-l24", "sonde", "±ci95"));
        for (TableResult r : results) {
            for (int i = 0; i < r.rows().size(); i++) {
                ThesisTables.Row row = r.rows().get(i);
                sb.append(String.format("%-6s %-22s %4d %-8s %10.2f %10.2f %10.2f %8.2f%n", r.table(), row.measure(), row.x(),
                        row.training() ? "training" : "held-out", row.experiment(), row.dapsL24(), r.sonde()[i], r.sondeCi()[i]));
            }
        }
        return sb.toString();
    }

    /**
     * Independent data points among the rows: rows of the tables in {@link #DERIVED_TABLES} are
     * left out; {@code training} selects training rows, held-out rows, or (null) all.
     */
    public static int dataPoints(List<ThesisTables.Row> rows, Boolean training) {
        int n = 0;
        for (ThesisTables.Row r : rows) {
            if (!DERIVED_TABLES.contains(r.table()) && (training == null || r.training() == training)) {
                n++;
            }
        }
        return n;
    }

    /**
     * A plain-text report: per table Sonde's and DAPS L24's mean absolute relative error on the
     * held-out rows and on the training rows, with the verdict on held-out rows (a tie when within
     * the measurement scatter), then the profile's parameter count beside the data points.
     */
    public static String report(List<TableResult> results, CalibrationProfile profile) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%-6s %-36s %21s   %21s   %s%n", "", "", "---- held-out rows ----", "---- training rows ----", ""));
        sb.append(String.format("%-6s %-36s %3s %8s %9s   %3s %8s %9s   %s%n", "table", "measures",
                "n", "sonde", "daps-l24", "n", "sonde", "daps-l24", "held-out verdict"));
        List<ThesisTables.Row> all = new ArrayList<>();
        for (TableResult r : results) {
            Map<String, Boolean> measures = new LinkedHashMap<>();
            for (ThesisTables.Row row : r.rows()) {
                measures.put(row.measure().replace("_ms", ""), true);
            }
            all.addAll(r.rows());
            sb.append(String.format("%-6s %-36s %3d %7.1f%% %8.1f%%   %3d %7.1f%% %8.1f%%   %s%n", r.table(),
                    String.join(", ", measures.keySet()), r.heldOut().rows(), 100 * r.heldOut().sonde(), 100 * r.heldOut().daps(),
                    r.training().rows(), 100 * r.training().sonde(), 100 * r.training().daps(), r.heldOut().verdict()));
        }
        sb.append(String.format("tie: errors within %.1f %% (the experiment's own scatter, Table 5.7 rows 1-16 clients)%n",
                100 * ThesisTables.MEASUREMENT_SCATTER));
        sb.append(String.format("profile %s: %d fitted parameters; %d independent data points (%d training, %d held out)%n",
                profile.name(), profile.fittedParameters().size(), dataPoints(all, null), dataPoints(all, true), dataPoints(all, false)));
        sb.append("fitted: ").append(String.join(", ", profile.fittedParameters())).append(System.lineSeparator());
        sb.append("fitted on ").append(fittedOn(profile)).append(System.lineSeparator());
        return sb.toString();
    }

    /** What the profile says its fitted values were fitted on ({@value #FITTED_ON_KEY}). */
    public static String fittedOn(CalibrationProfile profile) {
        return profile.text(FITTED_ON_KEY, "(the profile does not say)");
    }

    /**
     * The report as JSON: the profile's {@code fitted_parameters} (a count, with their names in
     * {@code fitted_parameter_names}), {@code data_points} (independent data points of all rows; the
     * training ones are {@code training_data_points}), {@code fitted_on} and per table one object with the training rows and one with the
     * held-out rows ({@code training} true/false, {@code rows}, {@code sonde_mare}, {@code daps_mare},
     * {@code verdict}).
     */
    public static ObjectNode json(List<TableResult> results, Settings settings) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        CalibrationProfile profile = settings.profile();
        List<ThesisTables.Row> all = new ArrayList<>();
        results.forEach(r -> all.addAll(r.rows()));
        o.put("profile", profile.name());
        o.put("replications", settings.replications());
        o.put("seed", settings.seed());
        o.put("fitted_parameters", profile.fittedParameters().size());
        ArrayNode names = o.putArray("fitted_parameter_names");
        profile.fittedParameters().forEach(names::add);
        o.put("data_points", dataPoints(all, null));
        o.put("training_data_points", dataPoints(all, true));
        o.put("held_out_data_points", dataPoints(all, false));
        o.put("fitted_on", fittedOn(profile));
        o.put("training_split", "per table and measure, rows in ascending x: 1st, 3rd, 5th ... train, 2nd, 4th ... held out");
        o.put("tie_threshold", ThesisTables.MEASUREMENT_SCATTER);
        ArrayNode tables = o.putArray("tables");
        for (TableResult r : results) {
            for (boolean training : new boolean[] {true, false}) {
                Errors e = training ? r.training() : r.heldOut();
                ObjectNode t = tables.addObject();
                t.put("table", r.table());
                t.put("training", training);
                t.put("rows", e.rows());
                Set<Integer> xs = new TreeSet<>();
                Set<String> measures = new LinkedHashSet<>();
                for (ThesisTables.Row row : r.rows()) {
                    if (row.training() == training) {
                        xs.add(row.x());
                        measures.add(row.measure());
                    }
                }
                xs.forEach(t.putArray("x")::add);
                measures.forEach(t.putArray("measures")::add);
                t.put("sonde_mare", e.sonde());
                t.put("daps_mare", e.daps());
                t.put("verdict", e.verdict());
            }
        }
        return o;
    }
}
