package io.sonde.sim.stats;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The outcome of independent replications: one {@link Estimate} per measure (in the order the
 * measures first appear), the per-replication results, and speed figures. Everything except
 * {@link #wallNanos()} and {@link #eventsPerSecond()} is a pure function of the seed and the
 * model, so {@link #format()} is byte-for-byte reproducible.
 */
public final class ExperimentResult {
    private final long seed;
    private final List<ReplicationResult> replications;
    private final Map<String, Estimate> estimates;
    private final long wallNanos;

    /** Combines replication results (in replication order). */
    public ExperimentResult(long seed, List<ReplicationResult> replications, long wallNanos) {
        this.seed = seed;
        this.replications = Collections.unmodifiableList(new ArrayList<>(replications));
        this.wallNanos = wallNanos;
        Set<String> names = new LinkedHashSet<>();
        for (ReplicationResult r : replications) {
            names.addAll(r.values().keySet());
        }
        LinkedHashMap<String, Estimate> e = new LinkedHashMap<>();
        for (String name : names) {
            double[] v = new double[replications.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = replications.get(i).get(name);
            }
            e.put(name, new Estimate(name, v));
        }
        this.estimates = Collections.unmodifiableMap(e);
    }

    /** The experiment seed. */
    public long seed() {
        return seed;
    }

    /** Measure name to estimate, in output order. */
    public Map<String, Estimate> estimates() {
        return estimates;
    }

    /** The estimate of {@code name}. */
    public Estimate estimate(String name) {
        Estimate e = estimates.get(name);
        if (e == null) {
            throw new IllegalArgumentException("no measure named '" + name + "'; known: " + estimates.keySet());
        }
        return e;
    }

    /** The replication results, in replication order. */
    public List<ReplicationResult> replications() {
        return replications;
    }

    /** Events fired over all replications. */
    public long totalEvents() {
        long n = 0;
        for (ReplicationResult r : replications) {
            n += r.events();
        }
        return n;
    }

    /** Wall-clock time of the whole experiment (replications ran in parallel). */
    public long wallNanos() {
        return wallNanos;
    }

    /**
     * Engine speed: events per second of wall-clock time of a single replication thread (total
     * events / summed replication wall times). Not deterministic; never part of {@link #format()}.
     */
    public double eventsPerSecond() {
        long nanos = 0;
        for (ReplicationResult r : replications) {
            nanos += r.wallNanos();
        }
        return nanos == 0 ? Double.NaN : totalEvents() / (nanos / 1e9);
    }

    /**
     * A deterministic text rendering: seed, replication count, events, and per measure the mean,
     * the CI half-width and the replication count, with full double precision.
     */
    public String format() {
        StringBuilder b = new StringBuilder();
        b.append("seed=").append(seed).append(" replications=").append(replications.size())
                .append(" events=").append(totalEvents()).append('\n');
        for (Estimate e : estimates.values()) {
            b.append(e.name()).append(" mean=").append(e.mean()).append(" ci95=").append(e.ci95())
                    .append(" n=").append(e.count()).append('\n');
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return format();
    }
}
