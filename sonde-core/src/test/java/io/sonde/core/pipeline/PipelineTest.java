package io.sonde.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.Counters;
import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class PipelineTest {
    @Test
    void ringsOfDeadThreadsAreDrainedThenReleasedAndTheirCountsKept() throws Exception {
        Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "discard", "buffers.max", "1",
                "flush.interval.ms", "10")));
        try {
            MethodProbe p = m.methodProbe("a.B.c", "()V");
            for (int round = 0; round < 3; round++) {
                Thread t = new Thread(() -> p.exit(p.enter()));
                t.start();
                t.join();
                // the writer releases the dead thread's ring after draining it
                while (MonitorAccess.pipeline(m).buffers().length > 0) Thread.sleep(5);
            }
        } finally {
            m.close();
        }
        Counters c = m.counters();
        assertThat(c.produced()).isEqualTo(6);
        assertThat(c.written()).isEqualTo(6); // each thread got the single ring in turn
        assertThat(c.dropped()).isZero();
    }
}
