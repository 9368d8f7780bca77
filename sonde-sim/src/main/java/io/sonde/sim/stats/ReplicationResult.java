package io.sonde.sim.stats;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The measure values of one replication (name to value, in a fixed order), plus how many events
 * it fired and how long it took on the wall clock (the latter only for reporting speed).
 */
public final class ReplicationResult {
    private final Map<String, Double> values;
    private long events;
    private long wallNanos;

    /** Values in the given order (copied). */
    public ReplicationResult(Map<String, Double> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** Name to value, in output order. */
    public Map<String, Double> values() {
        return values;
    }

    /** The value of {@code name}, NaN if absent. */
    public double get(String name) {
        Double v = values.get(name);
        return v == null ? Double.NaN : v;
    }

    /** Events fired by the replication. */
    public long events() {
        return events;
    }

    /** Wall-clock nanoseconds the replication took (not deterministic; for speed reports). */
    public long wallNanos() {
        return wallNanos;
    }

    /** Sets the run statistics (called by the experiment runner). */
    public ReplicationResult withRun(long events, long wallNanos) {
        this.events = events;
        this.wallNanos = wallNanos;
        return this;
    }
}
