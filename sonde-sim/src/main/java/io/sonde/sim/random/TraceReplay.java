package io.sonde.sim.random;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /**
     * Reads recorded values from a text file: one value per line, in ms (a unit suffix
     * {@code ms}, {@code us} or {@code s} is allowed); blank lines and lines starting with
     * {@code #} are skipped.
     *
     * @throws IOException if the file cannot be read
     * @throws IllegalArgumentException naming the file, the line and the problem
     */
    public static TraceReplay read(Path file, boolean loop) throws IOException {
        double[] values = new double[64];
        int n = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int lineNo = 0;
            while ((line = in.readLine()) != null) {
                lineNo++;
                String t = line.trim();
                if (t.isEmpty() || t.startsWith("#")) {
                    continue;
                }
                double v;
                try {
                    v = DistributionParser.time(t, t);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(file + ":" + lineNo + ": '" + t + "' is not a time in ms");
                }
                if (!(v >= 0)) {
                    throw new IllegalArgumentException(file + ":" + lineNo + ": '" + t + "' is negative; times must be >= 0");
                }
                if (n == values.length) {
                    values = Arrays.copyOf(values, n * 2);
                }
                values[n++] = v;
            }
        }
        if (n == 0) {
            throw new IllegalArgumentException(file + ": no values (one time in ms per line expected)");
        }
        return new TraceReplay(Arrays.copyOf(values, n), loop);
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
