package io.sonde.sim.random;

import java.util.Objects;

/** A {@link Distribution} bound to the {@link RandomStream} it draws from. */
public final class Sampler implements SampleSource {
    private final Distribution distribution;
    private final RandomStream stream;

    /** Binds {@code distribution} to {@code stream}. */
    public Sampler(Distribution distribution, RandomStream stream) {
        this.distribution = Objects.requireNonNull(distribution, "distribution");
        this.stream = Objects.requireNonNull(stream, "stream");
    }

    @Override
    public double next() {
        return distribution.sample(stream);
    }

    /** The distribution sampled. */
    public Distribution distribution() {
        return distribution;
    }
}
