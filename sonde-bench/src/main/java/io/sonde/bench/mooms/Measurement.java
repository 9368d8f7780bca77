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
 */
record Measurement(Configuration config, int round, long requests, long timed, long nanos, long blockMedianNs,
        long[] received, long[] lost, Long serverLost, long drainMillis) {

    /** One value change, one child added, one child removed. */
    static final int EVENTS_PER_REQUEST = 3;

    double meanNs() {
        return (double) nanos / timed;
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
