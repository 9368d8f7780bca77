package io.sonde.bench.real.app;

import java.util.List;

/** A bounded workload on a real library, run by {@link RealApp}. */
interface Workload extends AutoCloseable {

    /**
     * What a run gave.
     *
     * @param digest     a hash of every result, the same in every correct run of the same size
     * @param operations operations made
     * @param failures   results that differ from what the workload expects (empty when correct)
     */
    record Outcome(long digest, long operations, List<String> failures) {}

    /** Starts the library (connection and schema, or server): its classes load here. */
    void prepare() throws Exception;

    /** Makes {@code ops} operations, telling {@code slices} as each one starts. */
    Outcome run(long ops, Slices slices) throws Exception;

    @Override
    void close() throws Exception;

    /** Mixes {@code value} into {@code digest} (order-sensitive, 64-bit). */
    static long mix(long digest, long value) {
        long h = (digest ^ value) * 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 29);
    }

    /** Mixes a string into {@code digest}. */
    static long mix(long digest, String value) {
        long h = digest;
        for (int i = 0; i < value.length(); i++) {
            h = mix(h, value.charAt(i));
        }
        return mix(h, value.length());
    }
}
