package io.sonde.sim.stats;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The measures of one replication, by name, in the order they were created (which fixes the
 * order of the output). Also implements the warm-up cut: {@link #reset()} discards everything
 * observed so far; call it at a time (for instance {@code sim.after(warmupMs, measures::reset)})
 * or let {@link #completed()} call it after the first N completed requests
 * ({@link #warmUpCompletions(long)}).
 */
public final class Measures {
    private final Clock clock;
    // Insertion-ordered: the output order must not depend on hashing.
    private final Map<String, Measure> byName = new LinkedHashMap<>();
    private final List<Measure> ordered = new ArrayList<>();
    private final List<Runnable> resetListeners = new ArrayList<>();
    private long warmupCompletions;
    private long completions;
    private long stopAfter = Long.MAX_VALUE;
    private Runnable onStop;
    private boolean warmedUp;
    private double warmupEnd;

    /** Measures reading time from {@code clock} (normally the {@code Simulation}). */
    public Measures(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The clock. */
    public Clock clock() {
        return clock;
    }

    /** The tally named {@code name}, created on first use. */
    public Tally tally(String name) {
        Measure m = byName.get(name);
        if (m == null) {
            return add(new Tally(name));
        }
        return cast(m, Tally.class);
    }

    /** The time average named {@code name}, created on first use. */
    public TimeWeighted timeWeighted(String name) {
        Measure m = byName.get(name);
        if (m == null) {
            return add(new TimeWeighted(name, clock));
        }
        return cast(m, TimeWeighted.class);
    }

    /** The rate meter named {@code name}, created on first use. */
    public RateMeter rate(String name) {
        Measure m = byName.get(name);
        if (m == null) {
            return add(new RateMeter(name, clock));
        }
        return cast(m, RateMeter.class);
    }

    /** Registers a measure created elsewhere (for instance a machine's utilisation). */
    public <M extends Measure> M add(M measure) {
        Objects.requireNonNull(measure, "measure");
        if (byName.containsKey(measure.name())) {
            throw new IllegalArgumentException("a measure named '" + measure.name() + "' exists already");
        }
        byName.put(measure.name(), measure);
        ordered.add(measure);
        return measure;
    }

    /** The measure named {@code name}, or null. */
    public Measure get(String name) {
        return byName.get(name);
    }

    /** All measures in creation order. */
    public List<Measure> all() {
        return Collections.unmodifiableList(ordered);
    }

    /** Runs {@code listener} at every {@link #reset()} (for statistics kept outside measures). */
    public void onReset(Runnable listener) {
        resetListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** The warm-up cut: forgets everything observed so far, in every measure. */
    public void reset() {
        for (Measure m : ordered) {
            m.reset();
        }
        for (Runnable r : resetListeners) {
            r.run();
        }
        warmedUp = true;
        warmupEnd = clock.now();
        completions = 0; // the stop rule counts from the cut, whichever way it was made
    }

    /** Whether the warm-up cut has happened. */
    public boolean isWarmedUp() {
        return warmedUp;
    }

    /** Time of the warm-up cut (0 before it). */
    public double warmupEnd() {
        return warmupEnd;
    }

    /** Cut the warm-up after the first {@code n} calls of {@link #completed()} (0: no cut). */
    public void warmUpCompletions(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("warm-up request count must be >= 0, got " + n);
        }
        this.warmupCompletions = n;
    }

    /**
     * Run {@code stop} (typically {@code sim::stop}) once {@code n} requests completed after the
     * warm-up cut.
     */
    public void stopAfterCompletions(long n, Runnable stop) {
        if (n < 1) {
            throw new IllegalArgumentException("request count must be >= 1, got " + n);
        }
        this.stopAfter = n;
        this.onStop = Objects.requireNonNull(stop, "stop");
    }

    /**
     * Notes that a request completed (called by the workload's response recorders): performs the
     * warm-up cut and the stop rule.
     */
    public void completed() {
        completions++;
        if (warmupCompletions > 0 && completions == warmupCompletions) {
            warmupCompletions = 0;
            reset();
            return;
        }
        if (warmupCompletions == 0 && completions >= stopAfter && onStop != null) {
            onStop.run();
        }
    }

    /** Completions counted since the warm-up cut (or the start). */
    public long completions() {
        return completions;
    }

    /** This replication's values, in creation order. */
    public ReplicationResult snapshot() {
        LinkedHashMap<String, Double> values = new LinkedHashMap<>();
        for (Measure m : ordered) {
            values.put(m.name(), m.value());
        }
        return new ReplicationResult(values);
    }

    private static <T> T cast(Measure m, Class<T> type) {
        if (!type.isInstance(m)) {
            throw new IllegalArgumentException("measure '" + m.name() + "' is a "
                    + m.getClass().getSimpleName() + ", not a " + type.getSimpleName());
        }
        return type.cast(m);
    }
}
