package io.sonde.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.testing.AgentJvm;
import io.sonde.core.control.ProbeControlClient;
import io.sonde.core.control.ProbeControlMBean;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code probes=off}: the agent weaves every selected method but starts with every probe
 * switched off, so nothing is recorded until an operator switches probes on over JMX.
 */
class ProbesOffIT {

    private static final String APP = "io.sonde.agent.sample.SampleApp$";

    @TempDir
    Path dir;

    @Test
    void nothingIsRecordedUntilProbesAreSwitchedOnOverJmx() throws Exception {
        String options = "include=" + APP + "Work.*;" + APP + "Marks.*,probes=off,file.dir=" + dir + ",flush.interval.ms=20";
        try (AgentJvm p = AgentProcess.start(options, "loop")) {
            p.awaitLine("ready");
            try (ProbeControlClient client = ProbeControlClient.attach(p.pid())) {
                ProbeControlMBean probes = client.probes();
                SwitchingIT.mark(p, 1);
                Thread.sleep(300); // some hundred ticks with every probe off
                assertThat(probes.getStatus()).contains("probes started off");
                assertThat(probes.listMatching("*")).as("woven, all off").hasSize(3).allMatch(l -> l.startsWith("off "));
                assertThat(probes.getCounters()).contains("records.produced=0");
                assertThat(probes.enable("*")).isEqualTo(3);
                Thread.sleep(500);
                SwitchingIT.mark(p, 2);
                Thread.sleep(200);
                SwitchingIT.mark(p, 3);
                assertThat(probes.getEnabledProbeCount()).isEqualTo(3);
            }
            p.send("stop");
            p.awaitLine("done");
            assertThat(p.awaitExit()).as(p.stderr()).isZero();
        }
        Recorded r = Recorded.read(dir);
        List<List<String>> between = SwitchingIT.betweenMarks(r);
        // mark 1 ran while switched off: only marks 2 and 3 are recorded
        assertThat(r.enters("Marks.mark")).isEqualTo(2);
        assertThat(between).hasSize(3);
        assertThat(between.get(1)).as("between marks 2 and 3: switched on").contains("tick", "step");
        assertThat(r.trailer.written()).isEqualTo(r.trailer.produced());
    }
}
