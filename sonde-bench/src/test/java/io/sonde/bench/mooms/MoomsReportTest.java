package io.sonde.bench.mooms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The arithmetic of the report on made-up measurements: baselines, overheads, noise, the goals. */
class MoomsReportTest {

    /** A measurement of 1,000 timed requests costing {@code wall} ns of wall time and {@code cpu} ns of CPU each. */
    private static Measurement m(Configuration c, double wall, double cpu, long received, long lost) {
        int readers = c.readers();
        long[] r = new long[readers];
        long[] l = new long[readers];
        for (int i = 0; i < readers; i++) {
            r[i] = received;
            l[i] = lost;
        }
        return new Measurement(c, 0, 1_000, 1_000, (long) (wall * 1_000), (long) wall, r, l, c.system().equals("sonde") ? lost * readers : null,
                0, (long) (cpu * 1_000), (long) (cpu * 1_000), null);
    }

    @Test
    void eachMeasurementIsComparedWithTheBaselineRunsAroundIt() {
        List<Measurement> nones = List.of(m(Configuration.none(), 100, 100, 0, 0), m(Configuration.none(), 110, 110, 0, 0),
                m(Configuration.none(), 90, 90, 0, 0));
        List<Measurement> measured = List.of(m(Configuration.idle(), 210, 210, 0, 0), m(Configuration.jmx(0), 150, 150, 0, 0));
        List<Measurement> all = MoomsBenchmark.withBaselines(nones, measured);

        assertThat(all).extracting(x -> x.baseline().wallNs()).containsExactly(110.0, 95.0, 110.0, 105.0, 100.0);
        assertThat(all.get(3).relativeOverhead()).isCloseTo(1.0, within(1e-9)); // idle: 210 against (100 + 110) / 2
        assertThat(all.get(4).relativeCpuOverhead()).isCloseTo(0.5, within(1e-9)); // jmx x0: 150 against (110 + 90) / 2
        assertThatThrownBy(() -> MoomsBenchmark.withBaselines(nones, List.of())).hasMessageContaining("3 baseline runs around 0");
    }

    @Test
    void reportsMediansNoiseAndTheGoals() throws Exception {
        MoomsOptions o = MoomsOptions.parse(new String[] {"--observers", "1,5", "--qos", "immediate,batch-100", "--jmx-listeners", "0,5"});
        Duration flush = o.flush();
        List<Measurement> all = new ArrayList<>();
        // three rounds; the baseline is 100 ns, measured at 95..105 against its neighbours
        for (double none : new double[] {95, 100, 105}) {
            all.add(m(Configuration.none(), none, none, 0, 0).withBaseline(new Measurement.Baseline(100, 100, 100)));
        }
        Measurement.Baseline base = new Measurement.Baseline(100, 100, 100);
        for (double idle : new double[] {101, 104, 120}) all.add(m(Configuration.idle(), idle, idle, 0, 0).withBaseline(base));
        for (double s : new double[] {300, 310, 320}) all.add(m(Configuration.sonde("immediate", flush, 5), s, s, 2_900, 100).withBaseline(base));
        for (double s : new double[] {150, 140, 160}) all.add(m(Configuration.sonde("batch-100", flush, 5), s, s, 3_000, 0).withBaseline(base));
        for (double j : new double[] {250, 260, 240}) all.add(m(Configuration.jmx(5), j, j, 1_500, 1_400).withBaseline(base));
        MoomsReport r = new MoomsReport(o, "test JDK", all, 1.0, 2.0, 3.0);

        assertThat(r.row("idle").overhead(MoomsReport.Measure.WALL).median()).isCloseTo(0.04, within(1e-9));
        assertThat(r.row("idle").overhead(MoomsReport.Measure.WALL).max()).isCloseTo(0.20, within(1e-9));
        assertThat(r.noise(MoomsReport.Measure.CPU)).isCloseTo(0.05, within(1e-9));
        assertThat(r.idleWithinNoise(MoomsReport.Measure.CPU)).isTrue(); // 4 % against 5 %
        assertThat(r.comparedReaders()).isEqualTo(5);
        Map<String, Map<String, Object>> cmp = r.sondeAgainstJmx(MoomsReport.Measure.CPU);
        assertThat(cmp.get("immediate").get("sondeBelowJmx")).isEqualTo(false); // +210 % against +150 %
        assertThat(cmp.get("batch-100").get("sondeBelowJmx")).isEqualTo(true); // +50 % against +150 %
        MoomsReport.Row jmx = r.row("jmx x5");
        assertThat(jmx.expected()).isEqualTo(3 * 3_000 * 5);
        assertThat(jmx.received()).isEqualTo(3 * 1_500 * 5);
        assertThat(jmx.serverLost()).isNull();
        assertThat(r.row("sonde immediate x5").serverLost()).isEqualTo(3 * 100 * 5);
        assertThat(r.row("sonde immediate x5").missing()).isZero();
        assertThat(r.table()).contains("| sonde batch-100 x5 | 150 | +50.0 % [+40.0 %, +60.0 %] |")
                .contains("Sonde below JMX for 1 of 2 QoS");
        assertThat(r.json()).contains("\"idleWithinNoise\" : true");
    }

    @Test
    void idleOutsideTheNoiseIsSaid() {
        MoomsOptions o = MoomsOptions.parse(new String[] {"--observers", "0", "--jmx-listeners", "0"});
        Measurement.Baseline base = new Measurement.Baseline(100, 100, 100);
        List<Measurement> all = new ArrayList<>();
        for (double none : new double[] {99, 100, 101}) all.add(m(Configuration.none(), none, none, 0, 0).withBaseline(base));
        for (double idle : new double[] {110, 112, 108}) all.add(m(Configuration.idle(), idle, idle, 0, 0).withBaseline(base));
        MoomsReport r = new MoomsReport(o, "test JDK", all, 1.0, 2.0, 3.0);
        assertThat(r.idleWithinNoise(MoomsReport.Measure.THREAD)).isFalse();
        assertThat(r.table()).contains("idle +10.0 %: NOT within noise");
        assertThat(r.comparedReaders()).isEqualTo(-1);
        assertThat(r.sondeAgainstJmx(MoomsReport.Measure.WALL)).isEmpty();
    }
}
