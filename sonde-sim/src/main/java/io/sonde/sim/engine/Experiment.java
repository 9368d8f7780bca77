package io.sonde.sim.engine;

import io.sonde.sim.stats.ExperimentResult;
import io.sonde.sim.stats.ReplicationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;

/**
 * Runs independent replications of a model, in parallel, and combines them into confidence
 * intervals.
 *
 * <pre>{@code
 * ExperimentResult r = new Experiment(42, 10).run(sim -> {
 *     Measures m = new Measures(sim);
 *     ... build the model on sim, recording into m ...
 *     sim.run(100_000);
 *     return m.snapshot();
 * });
 * r.estimate("response_time_ms").mean();
 * }</pre>
 *
 * <p>Replication {@code i} gets {@code new Simulation(seed, i)}, whose random streams depend only
 * on (seed, i), and the results are combined in index order: the outcome does not depend on how
 * many threads ran them or in which order they finished. The model must be built inside the
 * body, so replications share no mutable state.
 */
public final class Experiment {
    /** One replication: build a model on the given simulation, run it, return its measures. */
    @FunctionalInterface
    public interface Replication {
        /** Runs one replication. */
        ReplicationResult run(Simulation sim);
    }

    private final long seed;
    private final int replications;
    private int parallelism;

    /** An experiment of {@code replications} replications seeded with {@code seed}. */
    public Experiment(long seed, int replications) {
        if (replications < 1) {
            throw new IllegalArgumentException("replications must be >= 1, got " + replications);
        }
        this.seed = seed;
        this.replications = replications;
        this.parallelism = Math.min(replications, Runtime.getRuntime().availableProcessors());
    }

    /** Limits the number of threads (default: min(replications, available processors)). */
    public Experiment parallelism(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("parallelism must be >= 1, got " + threads);
        }
        this.parallelism = Math.min(threads, Math.min(replications, Runtime.getRuntime().availableProcessors()));
        return this;
    }

    /** The number of replications. */
    public int replications() {
        return replications;
    }

    /**
     * Runs every replication and combines the results. A failure in any replication is rethrown
     * (unchecked exceptions as they are) after the others were cancelled.
     */
    public ExperimentResult run(Replication body) {
        Objects.requireNonNull(body, "body");
        long start = System.nanoTime();
        List<ReplicationResult> results = new ArrayList<>(replications);
        if (parallelism == 1) {
            for (int i = 0; i < replications; i++) {
                results.add(runOne(body, i));
            }
            return new ExperimentResult(seed, results, System.nanoTime() - start);
        }
        ThreadFactory daemons = r -> {
            Thread t = new Thread(r, "sonde-sim-replication");
            t.setDaemon(true);
            return t;
        };
        ExecutorService pool = Executors.newFixedThreadPool(parallelism, daemons);
        try {
            List<Future<ReplicationResult>> futures = new ArrayList<>(replications);
            for (int i = 0; i < replications; i++) {
                final int index = i;
                futures.add(pool.submit(() -> runOne(body, index)));
            }
            for (Future<ReplicationResult> f : futures) {
                try {
                    results.add(f.get());
                } catch (ExecutionException e) {
                    for (Future<ReplicationResult> other : futures) {
                        other.cancel(true);
                    }
                    Throwable cause = e.getCause();
                    if (cause instanceof RuntimeException) {
                        throw (RuntimeException) cause;
                    }
                    if (cause instanceof Error) {
                        throw (Error) cause;
                    }
                    throw new IllegalStateException("replication failed", cause);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for replications", e);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return new ExperimentResult(seed, results, System.nanoTime() - start);
    }

    private ReplicationResult runOne(Replication body, int index) {
        Simulation sim = new Simulation(seed, index);
        long t0 = System.nanoTime();
        ReplicationResult r = body.run(sim);
        long t1 = System.nanoTime();
        if (r == null) {
            throw new IllegalStateException("replication " + index + " returned no result");
        }
        return r.withRun(sim.eventCount(), t1 - t0);
    }
}
