package io.sonde.sim.random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class DistributionTest {
    /** Sample mean and variance over n draws. */
    private static double[] moments(Distribution d, int n) {
        RandomStream r = new RandomStream(1234);
        double mean = 0;
        double m2 = 0;
        for (int i = 1; i <= n; i++) {
            double x = d.sample(r);
            assertThat(x).isGreaterThanOrEqualTo(0);
            double delta = x - mean;
            mean += delta / i;
            m2 += delta * (x - mean);
        }
        return new double[] {mean, m2 / (n - 1)};
    }

    private static void assertMoments(Distribution d) {
        double[] m = moments(d, 400_000);
        assertThat(m[0]).as("mean of %s", d).isCloseTo(d.mean(), within(0.01 * Math.max(d.mean(), 1e-9)));
        assertThat(m[1]).as("variance of %s", d).isCloseTo(d.variance(), within(0.03 * Math.max(d.variance(), 1e-9)));
    }

    @Test
    void sampleMomentsMatchTheStatedOnes() {
        assertMoments(Distribution.exponential(5));
        assertMoments(Distribution.uniform(2, 4));
        assertMoments(Distribution.erlang(4, 8));
        assertMoments(Distribution.hyperExponential(new double[] {0.9, 0.1}, new double[] {1, 10}));
        assertMoments(Distribution.empirical(new double[] {1, 2, 2, 7}));
        Distribution det = Distribution.deterministic(3);
        assertThat(det.sample(new RandomStream(1))).isEqualTo(3.0);
        assertThat(det.variance()).isZero();
    }

    @Test
    void scvDistinguishesTheFamilies() {
        assertThat(Distribution.exponential(2).scv()).isEqualTo(1.0);
        assertThat(Distribution.erlang(4, 2).scv()).isCloseTo(0.25, within(1e-12));
        assertThat(Distribution.hyperExponential(new double[] {0.5, 0.5}, new double[] {1, 3}).scv()).isGreaterThan(1);
    }

    @Test
    void parsesTheTextForm() {
        assertThat(Distribution.parse("exp(5)")).isEqualTo(Distribution.exponential(5));
        assertThat(Distribution.parse(" exponential( 5ms ) ")).isEqualTo(Distribution.exponential(5));
        assertThat(Distribution.parse("det(0.5s)")).isEqualTo(Distribution.deterministic(500));
        assertThat(Distribution.parse("250us")).isEqualTo(Distribution.deterministic(0.25));
        assertThat(Distribution.parse("uniform(1,3)")).isEqualTo(Distribution.uniform(1, 3));
        assertThat(Distribution.parse("erlang(3, 6ms)")).isEqualTo(Distribution.erlang(3, 6));
        assertThat(Distribution.parse("hyperexp(0.25:1, 0.75:5)").mean()).isCloseTo(4.0, within(1e-12));
        assertThat(Distribution.parse("empirical(1,2,3)").mean()).isCloseTo(2.0, within(1e-12));
    }

    @Test
    void badTextGetsAMessageNamingTheTextAndTheProblem() {
        assertThatThrownBy(() -> Distribution.parse("gauss(1)"))
                .hasMessageContaining("'gauss(1)'").hasMessageContaining("unknown kind 'gauss'");
        assertThatThrownBy(() -> Distribution.parse("exp(abc)"))
                .hasMessageContaining("'exp(abc)'").hasMessageContaining("'abc' is not a number");
        assertThatThrownBy(() -> Distribution.parse("exp(1,2)")).hasMessageContaining("expected 1 argument, got 2");
        assertThatThrownBy(() -> Distribution.parse("exp(5")).hasMessageContaining("missing ')'");
        assertThatThrownBy(() -> Distribution.parse("exp(-1)")).hasMessageContaining("must be finite and >= 0");
        assertThatThrownBy(() -> Distribution.parse("uniform(3,1)")).hasMessageContaining("below low");
        assertThatThrownBy(() -> Distribution.parse("hyperexp(0.5:1,0.2:3)")).hasMessageContaining("sum to");
        assertThatThrownBy(() -> Distribution.parse("")).hasMessageContaining("empty distribution");
    }
}
