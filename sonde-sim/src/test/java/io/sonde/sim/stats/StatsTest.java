package io.sonde.sim.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StatsTest {
    /** A clock the test moves by hand. */
    private static final class ManualClock implements Clock {
        double t;

        @Override
        public double now() {
            return t;
        }
    }

    @Test
    void studentTQuantilesMatchTables() {
        assertThat(StudentT.quantile(0.975, 1)).isCloseTo(12.7062, within(1e-4));
        assertThat(StudentT.quantile(0.975, 2)).isCloseTo(4.3027, within(1e-4));
        assertThat(StudentT.quantile(0.975, 9)).isCloseTo(2.2622, within(1e-4));
        assertThat(StudentT.quantile(0.975, 29)).isCloseTo(2.0452, within(1e-4));
        assertThat(StudentT.quantile(0.95, 10)).isCloseTo(1.8125, within(1e-4));
        assertThat(StudentT.quantile(0.975, 1e6)).isCloseTo(1.95996, within(1e-4));
        assertThat(StudentT.quantile(0.025, 9)).isCloseTo(-2.2622, within(1e-4));
        assertThat(StudentT.cdf(0, 5)).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void tallyAgreesWithTwoPassFormulas() {
        SplittableRandom r = new SplittableRandom(9);
        double[] x = new double[10_000];
        Tally t = new Tally("x");
        for (int i = 0; i < x.length; i++) {
            x[i] = 1e6 + r.nextDouble(); // a large offset: the naive sum-of-squares would lose digits
            t.add(x[i]);
        }
        double mean = 0;
        for (double v : x) {
            mean += v;
        }
        mean /= x.length;
        double ss = 0;
        for (double v : x) {
            ss += (v - mean) * (v - mean);
        }
        assertThat(t.count()).isEqualTo(x.length);
        assertThat(t.mean()).isCloseTo(mean, within(1e-9));
        assertThat(t.variance()).isCloseTo(ss / (x.length - 1), within(1e-9));
        t.reset();
        assertThat(t.mean()).isNaN();
        assertThat(t.count()).isZero();
    }

    @Test
    void timeWeightedAveragesOverTime() {
        ManualClock c = new ManualClock();
        TimeWeighted q = new TimeWeighted("q", c);
        c.t = 10;
        q.set(2); // 0 during [0, 10)
        c.t = 20;
        q.set(4); // 2 during [10, 20)
        c.t = 40; // 4 during [20, 40)
        assertThat(q.value()).isCloseTo((0 * 10 + 2 * 10 + 4 * 20) / 40.0, within(1e-12));
        q.reset(); // warm-up cut at 40: keeps the level 4
        c.t = 50;
        q.add(-4);
        c.t = 60;
        assertThat(q.value()).isCloseTo((4 * 10 + 0 * 10) / 20.0, within(1e-12));
        TimeWeighted busy = new TimeWeighted("busy", c, 2);
        c.t = 70;
        busy.set(1);
        c.t = 80;
        assertThat(busy.value()).isCloseTo(0.25, within(1e-12)); // 1 of 2 CPUs for half the time
    }

    @Test
    void rateMeterCountsPerSecondOfSimulatedTime() {
        ManualClock c = new ManualClock();
        RateMeter m = new RateMeter("x", c);
        for (int i = 0; i < 50; i++) {
            m.increment();
        }
        c.t = 500; // ms
        assertThat(m.value()).isCloseTo(100.0, within(1e-12));
    }

    @Test
    void estimateGivesStudentTIntervalsAndDropsNaN() {
        Estimate e = new Estimate("x", new double[] {1, 2, 3, 4, Double.NaN});
        assertThat(e.count()).isEqualTo(4);
        assertThat(e.mean()).isEqualTo(2.5);
        double sd = Math.sqrt(((1.5 * 1.5) * 2 + (0.5 * 0.5) * 2) / 3);
        assertThat(e.ci95()).isCloseTo(StudentT.quantile(0.975, 3) * sd / 2, within(1e-12));
        assertThat(e.covers(2.5 + e.ci95() * 0.99)).isTrue();
        assertThat(e.covers(2.5 + e.ci95() * 1.01)).isFalse();
        assertThat(new Estimate("y", new double[] {5}).ci95()).isNaN();
        assertThat(new Estimate("z", new double[] {Double.NaN}).mean()).isNaN();
    }

    @Test
    void measuresCutTheWarmUpAfterNCompletionsAndStopAfterM() {
        ManualClock c = new ManualClock();
        Measures m = new Measures(c);
        Tally rt = m.tally("rt");
        TimeWeighted q = m.timeWeighted("q");
        int[] stopped = new int[1];
        m.warmUpCompletions(3);
        m.stopAfterCompletions(2, () -> stopped[0]++);
        for (int i = 1; i <= 3; i++) {
            c.t = i;
            rt.add(100);
            m.completed();
        }
        assertThat(m.isWarmedUp()).isTrue();
        assertThat(m.warmupEnd()).isEqualTo(3.0);
        assertThat(rt.count()).isZero();
        q.set(1);
        c.t = 4;
        rt.add(7);
        m.completed();
        assertThat(stopped[0]).isZero();
        c.t = 5;
        rt.add(9);
        m.completed();
        assertThat(stopped[0]).isEqualTo(1);
        ReplicationResult r = m.snapshot();
        assertThat(r.values().keySet()).containsExactly("rt", "q");
        assertThat(r.get("rt")).isEqualTo(8.0);
        assertThat(r.get("q")).isEqualTo(1.0);
    }

    @Test
    void aTimedWarmUpCutAlsoRestartsTheStopCount() {
        ManualClock c = new ManualClock();
        Measures m = new Measures(c);
        int[] stopped = new int[1];
        m.stopAfterCompletions(3, () -> stopped[0]++);
        m.completed();
        m.completed();
        c.t = 100;
        m.reset(); // e.g. sim.after(100, measures::reset)
        m.completed();
        m.completed();
        assertThat(stopped[0]).isZero();
        m.completed();
        assertThat(stopped[0]).isEqualTo(1);
        assertThat(m.completions()).isEqualTo(3);
    }

    @Test
    void measuresRejectDuplicateNamesAndWrongKinds() {
        Measures m = new Measures(() -> 0);
        m.tally("a");
        assertThatThrownBy(() -> m.timeWeighted("a")).hasMessageContaining("measure 'a' is a Tally");
        assertThatThrownBy(() -> m.add(new Tally("a"))).hasMessageContaining("exists already");
    }
}
