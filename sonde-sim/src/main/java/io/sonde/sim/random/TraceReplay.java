package io.sonde.sim.random;

import java.util.Arrays;

/**
 * Replays recorded values (for example measured inter-arrival times) in their recorded order;
 * when the values run out it starts again from the first one, or, if not looping, yields
 * {@link Double#POSITIVE_INFINITY} (which ends an arrival process).
 */
public final class TraceReplay implements SampleSource {
    private final double[] values;
    private final boolean loop;
    private int next;

    /**
     * @param values the recorded values, each finite and {@code >= 0}; copied
     * @param loop whether to start again after the last value
     */
    public TraceReplay(double[] values, boolean loop) {
        if (values.length == 0) {
            throw new IllegalArgumentException("a trace needs at least one value");
        }
        for (int i = 0; i < values.length; i++) {
            if (!(values[i] >= 0) || Double.isInfinite(values[i])) {
                throw new IllegalArgumentException("trace value #" + (i + 1) + " is " + values[i]
                        + "; values must be finite and >= 0");
            }
        }
        this.values = Arrays.copyOf(values, values.length);
        this.loop = loop;
    }

    @Override
    public double next() {
        if (next == values.length) {
            if (!loop) {
                return Double.POSITIVE_INFINITY;
            }
            next = 0;
        }
        return values[next++];
    }

    /** Number of recorded values. */
    public int size() {
        return values.length;
    }
}
