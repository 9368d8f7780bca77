package io.sonde.sim.validate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sonde.sim.model.SimulationResult;
import io.sonde.sim.scenario.ScenarioFile;
import io.sonde.sim.scenario.ScenarioRunner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Compares the Local Weather Service model ({@code examples/lws.yaml}, thesis chapter 6) with every
 * measurement the chapter's text publishes. The measured Tables 6.1 and 6.4 are withheld (a hidden
 * validation set), so what the text gives are a few utilisations and bounds (sections 6.4.2, 6.4.3,
 * 6.5.2); each is listed with its section and compared as a value (relative error) or as a bound
 * (met or not, with the distance). Nothing of the model was fitted on these numbers: its inputs are
 * Tables 6.2-6.3 and sections 6.4.1/6.4.3, the split of the totals over threads is estimated
 * (docs/simulator.md, "The LWS example"), so every point is out-of-sample ({@code training} false).
 */
public final class LwsComparison {

    /** How a published number is compared. */
    public enum Kind {
        /** an approximate value: relative error */
        VALUE,
        /** the measurement was below this: met when the model is too */
        UPPER_BOUND,
        /** the measurement was at least this: met when the model is too */
        LOWER_BOUND
    }

    /**
     * One published number.
     *
     * @param scenario {@code A} or {@code B}
     * @param rate sessions per second the number was measured at
     * @param measure the model's measure compared with it
     * @param kind how it is compared
     * @param published the number (a bound for the bound kinds)
     * @param low for a VALUE given as a range, its lower end (else equal to {@code published})
     * @param high for a VALUE given as a range, its upper end (else equal to {@code published})
     * @param source where the text gives it, in its words
     */
    public record Point(String scenario, double rate, String measure, Kind kind, double published, double low, double high,
            String source) {}

    /**
     * A point with the model's value.
     *
     * @param sonde the model's mean
     * @param ci95 its 95 % half-width
     */
    public record Outcome(Point point, double sonde, double ci95) {

        /** VALUE: the relative distance to the published value or range (0 inside the range); bounds: NaN. */
        public double relativeError() {
            Point p = point;
            if (p.kind() != Kind.VALUE) {
                return Double.NaN;
            }
            if (sonde >= p.low() && sonde <= p.high()) {
                return 0;
            }
            double nearest = sonde < p.low() ? p.low() : p.high();
            return Math.abs(sonde - nearest) / nearest;
        }

        /** Whether a bound holds for the model ({@code true} for values within the 1.9 % scatter). */
        public boolean met() {
            return switch (point.kind()) {
                case UPPER_BOUND -> sonde < point.published();
                case LOWER_BOUND -> sonde >= point.published();
                case VALUE -> relativeError() <= ThesisTables.MEASUREMENT_SCATTER;
            };
        }
    }

    /** Scenario A's measured rate with the published utilisations (6.4.2). */
    static final double RATE_A = 17.54;

    /**
     * Scenario B's rate for its points: the text gives no rate for them, so the lowest load at which
     * every figure of 6.5.2 applies is used (one session per second, below the 1000/450 sessions
     * per second at which 6.4.3 says the web server's threads start to pile up).
     */
    static final double RATE_B = 1.0;

    /** Every number chapter 6's text publishes about measurements (the tables are withheld). */
    public static List<Point> publishedPoints() {
        return List.of(
                new Point("A", RATE_A, "web_cpu_utilization", Kind.VALUE, 0.88, 0.88, 0.88,
                        "6.4.2: at 17.54 requests/s the web server's CPU utilisation was around 88 %"),
                new Point("A", RATE_A, "client_cpu_utilization", Kind.UPPER_BOUND, 0.10, 0.10, 0.10,
                        "6.4.2: the load generator used less than 10 % of its CPU"),
                new Point("A", RATE_A, "middleware_cpu_utilization", Kind.UPPER_BOUND, 0.20, 0.20, 0.20,
                        "6.4.2: location and weather server each less than 10 % (one machine: together < 20 %)"),
                new Point("B", RATE_B, "web_page_ms", Kind.LOWER_BOUND, 450, 450, 450,
                        "6.4.3: the web server's client thread holds a page request at least 450 ms (the delays)"),
                // 6.5.2: DAPS is off by "about 10 milliseconds ... a relative error of about 2 to 3%", so
                // the measured end-to-end time was about 10 / 0.03 = 333 to 10 / 0.02 = 500 ms.
                new Point("B", RATE_B, "client_total_ms", Kind.VALUE, 417, 333, 500,
                        "6.5.2: a ~10 ms gap is 2-3 % of the measured end-to-end time, so it was about 333-500 ms"));
    }

    private final ScenarioFile file;
    private final long seed;
    private final int replications;

    /**
     * A comparison of the scenario file {@code lws} (normally {@code examples/lws.yaml}).
     *
     * @throws io.sonde.sim.scenario.ScenarioException naming the file when it cannot be read or parsed
     */
    public LwsComparison(Path lws, long seed, int replications) {
        this.file = ScenarioFile.read(lws);
        this.seed = seed;
        this.replications = replications;
    }

    /** Runs the model once per scenario and rate and compares it with every published point. */
    public List<Outcome> run() {
        List<Outcome> out = new ArrayList<>();
        String lastKey = null;
        SimulationResult last = null;
        for (Point p : publishedPoints()) {
            String key = p.scenario() + "@" + p.rate();
            if (!key.equals(lastKey)) {
                last = ScenarioRunner.run(file, new ScenarioRunner.Options(p.scenario(), p.rate(), seed, replications, null, null, null));
                lastKey = key;
            }
            SimulationResult.Estimate e = last.get(p.measure());
            if (e == null) {
                throw new IllegalArgumentException(file.name() + ": the model has no measure '" + p.measure()
                        + "' to compare with thesis " + p.source());
            }
            out.add(new Outcome(p, e.mean(), e.ci95()));
        }
        return out;
    }

    /** The comparison as a plain-text table. */
    public static String report(List<Outcome> outcomes) {
        StringBuilder sb = new StringBuilder();
        sb.append("LWS (thesis chapter 6, examples/lws.yaml) against the numbers the chapter's text publishes;"
                + " nothing fitted on them (training: false)").append(System.lineSeparator());
        sb.append(String.format(Locale.ROOT, "%-8s %6s %-27s %-13s %11s %11s %8s  %s%n", "scenario", "rate/s", "measure", "published",
                "sonde", "error", "verdict", "source"));
        for (Outcome o : outcomes) {
            Point p = o.point();
            String published = switch (p.kind()) {
                case UPPER_BOUND -> "< " + num(p.published());
                case LOWER_BOUND -> ">= " + num(p.published());
                case VALUE -> p.low() == p.high() ? "~" + num(p.published()) : num(p.low()) + "-" + num(p.high());
            };
            String error = p.kind() == Kind.VALUE ? String.format(Locale.ROOT, "%.1f%%", 100 * o.relativeError()) : "bound";
            String verdict = p.kind() == Kind.VALUE ? (o.met() ? "tie" : "off") : (o.met() ? "met" : "not met");
            sb.append(String.format(Locale.ROOT, "%-8s %6.2f %-27s %-13s %11s %11s %8s  %s%n", p.scenario(), p.rate(), p.measure(),
                    published, num(o.sonde()), error, verdict, p.source()));
        }
        return sb.toString();
    }

    /** The comparison as JSON: one object per point, {@code training} false. */
    public static ArrayNode json(List<Outcome> outcomes) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        for (Outcome o : outcomes) {
            Point p = o.point();
            ObjectNode n = a.addObject();
            n.put("scenario", p.scenario());
            n.put("rate_per_s", p.rate());
            n.put("measure", p.measure());
            n.put("kind", p.kind().name().toLowerCase(Locale.ROOT));
            n.put("published", p.published());
            n.put("published_low", p.low());
            n.put("published_high", p.high());
            n.put("source", p.source());
            n.put("training", false);
            n.put("sonde", o.sonde());
            n.put("sonde_ci95", o.ci95());
            if (p.kind() == Kind.VALUE) {
                n.put("relative_error", o.relativeError());
            }
            n.put("met", o.met());
        }
        return a;
    }

    private static String num(double v) {
        return Math.abs(v) < 2 ? String.format(Locale.ROOT, "%.3f", v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
