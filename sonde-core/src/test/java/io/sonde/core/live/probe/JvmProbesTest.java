package io.sonde.core.live.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.live.AttributeValue;
import io.sonde.api.live.EventKind;
import io.sonde.api.live.Qos;
import io.sonde.core.live.LiveRuntime;
import io.sonde.core.live.Recorder;
import io.sonde.core.live.mib.ManualClock;
import io.sonde.core.live.session.ObserverEndpoint;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class JvmProbesTest {
    final LiveRuntime live = LiveRuntime.withProbes(new ManualClock(), 3_600_000); // the thread never ticks by itself here

    @AfterEach
    void close() {
        live.close();
    }

    @Test
    void pullReadsTheMetricsWithoutSampling() {
        List<AttributeValue> values = live.pull("jvm/**");
        assertThat(values).extracting(AttributeValue::path).contains("jvm/memory/heapUsed", "jvm/memory/nonHeapUsed",
                "jvm/gc/count", "jvm/gc/time", "jvm/threads/count");
        assertThat(live.findAttribute("jvm/memory/heapUsed").orElseThrow().unit()).isEqualTo("bytes");
        assertThat((Long) live.findAttribute("jvm/threads/count").orElseThrow().read().value()).isPositive();
        assertThat(live.pull("system/**")).extracting(AttributeValue::path).contains("system/load/average");
        assertThat(live.probes().openGates()).isZero();
        assertThat(live.probes().samplerStarted()).isFalse();
        assertThat(live.probes().sampleOnce()).isZero();
        assertThat(live.mib().producedEvents()).isZero();
    }

    @Test
    void onlySubscribedProbesAreSampledAndTheSamplerStartsWithTheFirstSubscription() {
        Recorder r = new Recorder();
        ObserverEndpoint s = live.openManualSession(r, 64);
        var sub = s.subscribe("jvm/threads/*", EnumSet.of(EventKind.VALUE_CHANGED), Qos.immediate());
        assertThat(live.probes().openGates()).isEqualTo(2);
        assertThat(live.probes().samplerStarted()).isTrue();
        assertThat(live.probes().sampleOnce()).isEqualTo(2);
        s.pump();
        assertThat(r.events()).extracting(e -> e.sourcePath()).contains("jvm/threads/count");
        sub.cancel();
        assertThat(live.probes().openGates()).isZero();
        assertThat(live.probes().sampleOnce()).isZero();
    }
}
