package io.sonde.sim.random;

/**
 * Something that yields a sequence of non-negative values: service demands, delays,
 * inter-arrival times, think times. Either a {@link Sampler} (a distribution drawn from a random
 * stream) or a {@link TraceReplay} (recorded values played back in order).
 */
@FunctionalInterface
public interface SampleSource {
    /** The next value (in simulated milliseconds when it is a time). */
    double next();

    /** A source that always yields {@code value}. */
    static SampleSource constant(double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("constant must be finite and >= 0, got " + value);
        }
        return () -> value;
    }
}
