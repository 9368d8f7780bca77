package io.sonde.bench.mooms;

/**
 * One of the three versions of the MOOMS test server (section 6.1): a request does the same
 * business work in each, then updates one attribute and creates and removes one child object, in
 * the way the version's monitoring (none, Sonde, JMX) asks for.
 */
abstract class Workload {
    /** Iterations of {@link #businessWork}. */
    private final int work;
    /** Keeps the business work's result alive so the JIT cannot drop the loop. */
    private long sink;

    Workload(int work) {
        this.work = work;
    }

    /** The name the harness uses in commands ({@code none}, {@code sonde}, {@code jmx}). */
    abstract String name();

    /** One request; {@code value} differs from every earlier request's, so the attribute always changes. */
    final void request(long value) throws Exception {
        sink += businessWork(value, work);
        update(value);
    }

    /** Sets the attribute to {@code value} and creates and removes one child object. */
    abstract void update(long value) throws Exception;

    /**
     * The request's own computation: a fixed number of xorshift steps (no memory traffic, no
     * allocation), the same in every version, standing for what a real request does besides
     * being monitored. MOOMS's requests were remote calls of about 2 ms.
     */
    static long businessWork(long seed, int iterations) {
        long x = seed | 1;
        for (int i = 0; i < iterations; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    long sink() {
        return sink;
    }

    /** The business object of MOOMS's test ({@code FOO}): created and dropped by every request. */
    static final class Foo {
        long item1;
        long item2;
        /** Its monitored twin, if the version has one (a Sonde object or an MBean name). */
        Object monitored;

        Foo(long value) {
            item1 = value;
            item2 = -value;
        }
    }
}
