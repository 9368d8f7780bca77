package io.sonde.bench.mooms;

/**
 * One configuration measured once (one round).
 *
 * @param requests      requests run, warm-up included (each makes {@link #EVENTS_PER_REQUEST} events)
 * @param timed         requests timed
 * @param nanos         time of the timed requests
 * @param blockMedianNs median over blocks of {@link MoomsServer#BLOCK} requests of ns per request
 * @param received      per reader: events received
 * @param lost          per reader: events it was told were lost
 * @param serverLost    Sonde: events the server's sessions dropped (queue full), counted at the server;
 *                      null for the other systems
 * @param drainMillis   how long the readers took after the last request to account for every event
 *                      (or until the harness stopped waiting)
 * @param threadCpuNanos CPU time of the server's request thread over the timed requests
 * @param serverCpuNanos CPU time of the server's Java threads from the first timed request until the
 *                      readers had drained (the request thread, Sonde's dispatchers and endpoint
 *                      threads, JMX's connector threads; not GC and JIT)
 * @param baseline      the un-instrumented server measured right before and right after this
 *                      measurement (their mean; for a baseline measurement, its neighbours); null
 *                      until the round is complete
 */
record Measurement(Configuration config, int round, long requests, long timed, long nanos, long blockMedianNs,
        long[] received, long[] lost, Long serverLost, long drainMillis, long threadCpuNanos, long serverCpuNanos,
        Baseline baseline) {

    /** Per request: wall ns, the request thread's CPU ns, the server's threads' CPU ns. */
    record Baseline(double wallNs, double threadCpuNs, double serverCpuNs) {
        static Baseline of(Measurement m) {
            return new Baseline(m.meanNs(), m.threadCpuNs(), m.serverCpuNs());
        }

        static Baseline mean(Baseline a, Baseline b) {
            return new Baseline((a.wallNs + b.wallNs) / 2, (a.threadCpuNs + b.threadCpuNs) / 2, (a.serverCpuNs + b.serverCpuNs) / 2);
        }
    }

    /** One value change, one child added, one child removed. */
    static final int EVENTS_PER_REQUEST = 3;

    double meanNs() {
        return (double) nanos / timed;
    }

    double threadCpuNs() {
        return (double) threadCpuNanos / timed;
    }

    double serverCpuNs() {
        return (double) serverCpuNanos / timed;
    }

    /** MOOMS's relative overhead: {@code (t - t_none) / t_none}, against the adjacent baseline; wall time. */
    double relativeOverhead() {
        return (meanNs() - baseline.wallNs()) / baseline.wallNs();
    }

    /** The same with the server's threads' CPU time per request. */
    double relativeCpuOverhead() {
        return (serverCpuNs() - baseline.serverCpuNs()) / baseline.serverCpuNs();
    }

    /** The same with the request thread's CPU time per request. */
    double relativeThreadCpuOverhead() {
        return (threadCpuNs() - baseline.threadCpuNs()) / baseline.threadCpuNs();
    }

    Measurement withBaseline(Baseline b) {
        return new Measurement(config, round, requests, timed, nanos, blockMedianNs, received, lost, serverLost, drainMillis,
                threadCpuNanos, serverCpuNanos, b);
    }

    /** Events each reader should have received. */
    long expectedPerReader() {
        return EVENTS_PER_REQUEST * requests;
    }

    long receivedTotal() {
        long s = 0;
        for (long r : received) s += r;
        return s;
    }

    long lostTotal() {
        long s = 0;
        for (long l : lost) s += l;
        return s;
    }

    /** Events neither received nor reported lost by the end of the drain wait, over all readers. */
    long missingTotal() {
        long s = 0;
        for (int i = 0; i < received.length; i++) s += Math.max(0, expectedPerReader() - received[i] - lost[i]);
        return s;
    }
}
