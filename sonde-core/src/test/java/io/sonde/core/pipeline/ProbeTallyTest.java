package io.sonde.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.core.config.SondeConfig;
import io.sonde.core.probe.Probes;
import io.sonde.core.writer.DiscardWriter;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The writer thread's per-probe tally: executions, completed executions, durations and depths. */
class ProbeTallyTest {
    @Test
    void theWriterThreadCountsExecutionsDepthsAndDurationsPerProbe() {
        Pipeline p = new Pipeline(SondeConfig.of(Map.of("flush.interval.ms", "5")), new DiscardWriter(),
                Identity.of(UUID.randomUUID()), false);
        try {
            ProbeTally tally = p.enableProbeTally();
            int outer = p.defineProbe("app.Outer.run", "()V");
            int inner = p.defineProbe("app.Inner.step", "()V");
            for (int i = 0; i < 100; i++) {
                boolean o = Probes.enter(outer);
                for (int k = 0; k < 10; k++) Probes.exit(inner, Probes.enter(inner));
                Probes.exit(outer, o);
            }
            p.close(); // the final drain is tallied too
            ProbeTally.Totals t = tally.snapshot();
            assertThat(t.executions()[outer]).isEqualTo(100);
            assertThat(t.executions()[inner]).isEqualTo(1000);
            assertThat(t.completed()[outer]).isEqualTo(100);
            assertThat(t.completed()[inner]).isEqualTo(1000);
            assertThat(t.depths()[outer]).isZero();
            assertThat(t.depths()[inner]).isEqualTo(1000); // each at depth 1
            assertThat(t.nanos()[outer]).isGreaterThanOrEqualTo(t.nanos()[inner]); // outer includes inner
        } finally {
            p.close();
        }
    }
}
