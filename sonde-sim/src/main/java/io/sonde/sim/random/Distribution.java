package io.sonde.sim.random;

import java.util.Arrays;

/**
 * A probability distribution of non-negative values (times in simulated milliseconds).
 * Distributions are immutable and stateless: the randomness comes from the {@link RandomStream}
 * passed to {@link #sample}; bind the two with a {@link Sampler}.
 *
 * <p>Factories: {@link #exponential}, {@link #deterministic}, {@link #uniform}, {@link #erlang},
 * {@link #hyperExponential}, {@link #empirical}; {@link #parse} reads the text form used in
 * scenario files and on the command line.
 */
public interface Distribution {
    /** Draws one value. */
    double sample(RandomStream random);

    /** The mean of the distribution. */
    double mean();

    /** The variance of the distribution. */
    double variance();

    /** Squared coefficient of variation, variance / mean^2 (0 when the mean is 0). */
    default double scv() {
        double m = mean();
        return m == 0 ? 0 : variance() / (m * m);
    }

    /** Exponential with the given mean ({@code mean >= 0}). */
    static Distribution exponential(double mean) {
        requireNonNegative(mean, "exponential mean");
        return new Exponential(mean);
    }

    /** Always {@code value}. */
    static Distribution deterministic(double value) {
        requireNonNegative(value, "deterministic value");
        return new Deterministic(value);
    }

    /** Uniform on [low, high]. */
    static Distribution uniform(double low, double high) {
        requireNonNegative(low, "uniform low");
        requireNonNegative(high, "uniform high");
        if (high < low) {
            throw new IllegalArgumentException("uniform high " + high + " is below low " + low);
        }
        return new Uniform(low, high);
    }

    /** Erlang with {@code phases} exponential phases and total mean {@code mean}. */
    static Distribution erlang(int phases, double mean) {
        if (phases < 1) {
            throw new IllegalArgumentException("erlang needs at least 1 phase, got " + phases);
        }
        requireNonNegative(mean, "erlang mean");
        return new Erlang(phases, mean);
    }

    /**
     * Hyper-exponential: with probability {@code probabilities[i]} an exponential with mean
     * {@code means[i]}. Probabilities must sum to 1 (within 1e-9).
     */
    static Distribution hyperExponential(double[] probabilities, double[] means) {
        return new HyperExponential(probabilities, means);
    }

    /** Each of the given observed values with equal probability (resampling a measurement). */
    static Distribution empirical(double[] values) {
        return new Empirical(values);
    }

    /**
     * Parses the text form: {@code exp(MEAN)}, {@code det(VALUE)} (or a bare number),
     * {@code uniform(LOW,HIGH)}, {@code erlang(K,MEAN)}, {@code hyperexp(P1:MEAN1,P2:MEAN2,...)},
     * {@code empirical(V1,V2,...)}. Numbers are milliseconds and may carry a unit suffix
     * {@code ms}, {@code us} or {@code s} ({@code exp(5ms)}, {@code det(0.5s)}). Long names
     * {@code exponential} and {@code deterministic} are accepted too.
     *
     * @throws IllegalArgumentException naming the problem and the offending text
     */
    static Distribution parse(String text) {
        return DistributionParser.parse(text);
    }

    private static void requireNonNegative(double v, String what) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(what + " must be finite and >= 0, got " + v);
        }
    }

    /** Exponential distribution. */
    record Exponential(double mean) implements Distribution {
        @Override
        public double sample(RandomStream random) {
            return random.nextExponential(mean);
        }

        @Override
        public double variance() {
            return mean * mean;
        }

        @Override
        public String toString() {
            return "exp(" + mean + ")";
        }
    }

    /** Degenerate distribution. */
    record Deterministic(double mean) implements Distribution {
        @Override
        public double sample(RandomStream random) {
            return mean;
        }

        @Override
        public double variance() {
            return 0;
        }

        @Override
        public String toString() {
            return "det(" + mean + ")";
        }
    }

    /** Continuous uniform distribution. */
    record Uniform(double low, double high) implements Distribution {
        @Override
        public double sample(RandomStream random) {
            return low + (high - low) * random.nextDouble();
        }

        @Override
        public double mean() {
            return (low + high) / 2;
        }

        @Override
        public double variance() {
            double w = high - low;
            return w * w / 12;
        }

        @Override
        public String toString() {
            return "uniform(" + low + "," + high + ")";
        }
    }

    /** Erlang-k distribution. */
    record Erlang(int phases, double mean) implements Distribution {
        @Override
        public double sample(RandomStream random) {
            // Product of uniforms: one log instead of k.
            double product = 1;
            for (int i = 0; i < phases; i++) {
                product *= random.nextDoubleNonZero();
            }
            return -(mean / phases) * Math.log(product);
        }

        @Override
        public double variance() {
            return mean * mean / phases;
        }

        @Override
        public String toString() {
            return "erlang(" + phases + "," + mean + ")";
        }
    }

    /** Mixture of exponentials. */
    final class HyperExponential implements Distribution {
        private final double[] cumulative;
        private final double[] means;

        HyperExponential(double[] probabilities, double[] means) {
            if (probabilities.length == 0 || probabilities.length != means.length) {
                throw new IllegalArgumentException("hyperexp needs as many probabilities as means (and at least one)");
            }
            this.cumulative = new double[probabilities.length];
            this.means = Arrays.copyOf(means, means.length);
            double sum = 0;
            for (int i = 0; i < probabilities.length; i++) {
                if (!(probabilities[i] >= 0 && probabilities[i] <= 1)) {
                    throw new IllegalArgumentException("hyperexp probability #" + (i + 1) + " is " + probabilities[i]);
                }
                requireNonNegative(means[i], "hyperexp mean #" + (i + 1));
                sum += probabilities[i];
                cumulative[i] = sum;
            }
            if (Math.abs(sum - 1) > 1e-9) {
                throw new IllegalArgumentException("hyperexp probabilities sum to " + sum + ", not 1");
            }
            cumulative[cumulative.length - 1] = 1;
        }

        @Override
        public double sample(RandomStream random) {
            double u = random.nextDouble();
            int i = 0;
            while (u >= cumulative[i]) {
                i++;
            }
            return random.nextExponential(means[i]);
        }

        @Override
        public double mean() {
            double m = 0;
            double previous = 0;
            for (int i = 0; i < means.length; i++) {
                m += (cumulative[i] - previous) * means[i];
                previous = cumulative[i];
            }
            return m;
        }

        @Override
        public double variance() {
            double second = 0;
            double previous = 0;
            for (int i = 0; i < means.length; i++) {
                second += (cumulative[i] - previous) * 2 * means[i] * means[i];
                previous = cumulative[i];
            }
            double m = mean();
            return second - m * m;
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder("hyperexp(");
            double previous = 0;
            for (int i = 0; i < means.length; i++) {
                if (i > 0) {
                    b.append(',');
                }
                b.append(cumulative[i] - previous).append(':').append(means[i]);
                previous = cumulative[i];
            }
            return b.append(')').toString();
        }
    }

    /** Uniform choice among observed values. */
    final class Empirical implements Distribution {
        private final double[] values;

        Empirical(double[] values) {
            if (values.length == 0) {
                throw new IllegalArgumentException("empirical needs at least one value");
            }
            for (int i = 0; i < values.length; i++) {
                requireNonNegative(values[i], "empirical value #" + (i + 1));
            }
            this.values = Arrays.copyOf(values, values.length);
        }

        @Override
        public double sample(RandomStream random) {
            return values[random.nextInt(values.length)];
        }

        @Override
        public double mean() {
            double s = 0;
            for (double v : values) {
                s += v;
            }
            return s / values.length;
        }

        @Override
        public double variance() {
            double m = mean();
            double s = 0;
            for (double v : values) {
                s += (v - m) * (v - m);
            }
            return s / values.length;
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder("empirical(");
            for (int i = 0; i < values.length; i++) {
                if (i > 0) {
                    b.append(',');
                }
                b.append(values[i]);
            }
            return b.append(')').toString();
        }
    }
}
