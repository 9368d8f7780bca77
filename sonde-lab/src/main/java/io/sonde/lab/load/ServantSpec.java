package io.sonde.lab.load;

import io.sonde.lab.server.Wire;
import java.util.SplittableRandom;

/**
 * The servant work each request asks for: CPU time or a delay, with a mean, constant or
 * exponentially distributed (drawn by the client from its own seeded stream).
 *
 * @param delay whether the servant sleeps rather than spends CPU time
 * @param meanNanos mean demand in nanoseconds (at least 0)
 * @param exponential exponentially distributed; otherwise every request asks for the mean
 */
public record ServantSpec(boolean delay, long meanNanos, boolean exponential) {

    /** Validates the demand. */
    public ServantSpec {
        if (meanNanos < 0) {
            throw new IllegalArgumentException("servant demand must be >= 0, got " + meanNanos + " ns");
        }
    }

    /** The wire code of the servant kind. */
    public int wireKind() {
        return delay ? Wire.KIND_DELAY : Wire.KIND_CPU;
    }

    /** One request's demand in nanoseconds. */
    public long draw(SplittableRandom random) {
        if (!exponential) {
            return meanNanos;
        }
        return Math.round(meanNanos * -Math.log(1.0 - random.nextDouble()));
    }

    /** The mean in milliseconds. */
    public double meanMillis() {
        return meanNanos / 1e6;
    }

    @Override
    public String toString() {
        return (delay ? "delay " : "cpu ") + meanMillis() + " ms " + (exponential ? "exponential" : "constant");
    }
}
