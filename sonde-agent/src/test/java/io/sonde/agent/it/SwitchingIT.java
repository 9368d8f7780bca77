package io.sonde.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.it.Recorded.Rec;
import io.sonde.agent.testing.AgentJvm;
import io.sonde.core.control.AgentState;
import io.sonde.core.control.LocalJvm;
import io.sonde.core.control.ProbeControlClient;
import io.sonde.core.control.ProbeControlMBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Run-time switching through the agent's MBean, and loading the agent into a running JVM. The
 * sample's loop calls {@code Work.tick} every millisecond; on "mark" it calls {@code Marks.mark}
 * once, so the records of its main thread show what was recorded between two marks.
 */
class SwitchingIT {

    private static final String APP = "io.sonde.agent.sample.SampleApp$";

    @TempDir
    Path dir;

    @Test
    void probesSwitchOffAndOnAtRunTimeThroughTheMBean() throws Exception {
        String options = "include=" + APP + "Work.*;" + APP + "Marks.*,file.dir=" + dir + ",flush.interval.ms=20";
        try (AgentJvm p = AgentProcess.start(options, "loop")) {
            p.awaitLine("ready");
            try (ProbeControlClient client = ProbeControlClient.attach(p.pid())) {
                ProbeControlMBean probes = client.probes();
                mark(p, 1); // some ticks recorded before
                assertThat(probes.disable("*$Work.*")).isEqualTo(2);
                assertThat(probes.listMatching("*$Work.tick"))
                        .singleElement().asString().startsWith("off ").contains(APP + "Work.tick ()V");
                Thread.sleep(1000); // the switch must have taken effect within one second
                mark(p, 2);
                Thread.sleep(200);
                mark(p, 3);
                assertThat(probes.enable("*.tick")).isEqualTo(1);
                Thread.sleep(1000);
                mark(p, 4);
                Thread.sleep(200);
                mark(p, 5);
                assertThat(probes.getProbeCount()).isEqualTo(3);
                assertThat(probes.getEnabledProbeCount()).isEqualTo(2);
                assertThat(probes.getStatus())
                        .startsWith("monitoring 2 method rule(s) from -javaagent options, loaded by -javaagent")
                        .endsWith("; 2 switch(es) over JMX, last: enable *.tick (1 probe(s) changed)");
                assertThat(probes.getCounters()).anyMatch(c -> c.startsWith("records.written="));
            }
            p.send("stop");
            p.awaitLine("done");
            assertThat(p.awaitExit()).isZero();
        }
        List<List<String>> between = betweenMarks(Recorded.read(dir));
        assertThat(between.get(0)).as("before mark 1").contains("tick", "step");
        assertThat(between.get(2)).as("between marks 2 and 3: switched off").isEmpty();
        assertThat(between.get(4)).as("between marks 4 and 5: tick on again, step still off")
                .contains("tick").doesNotContain("step");
    }

    @Test
    void attachesToARunningJvmAndInstrumentsLoadedClasses() throws Exception {
        try (AgentJvm p = AgentProcess.start(null, "loop")) {
            p.awaitLine("ready");
            mark(p, 1); // Work and Marks are loaded and running before the agent comes
            try (LocalJvm jvm = LocalJvm.attach(p.pid())) {
                jvm.loadAgent(AgentProcess.AGENT_JAR.toAbsolutePath(),
                        "include=" + APP + "Work.tick;" + APP + "Marks.*,file.dir=" + dir + ",flush.interval.ms=20");
                // agentmain returns at once; the loaded classes are woven on a thread of the agent
                AgentState.Weaving w = awaitWeaving(jvm);
                assertThat(w.woven()).as("Work and Marks re-transformed").isGreaterThanOrEqualTo(2);
            }
            try (ProbeControlClient client = ProbeControlClient.attach(p.pid())) {
                assertThat(client.probes().getStatus()).isEqualTo("monitoring 2 method rule(s) from attach options, loaded by attach");
                assertThat(client.probes().listMatching("*")).hasSize(2);
            }
            mark(p, 2);
            Thread.sleep(200);
            mark(p, 3);
            p.send("stop");
            p.awaitLine("done");
            assertThat(p.awaitExit()).isZero();
            assertThat(p.stderr()).doesNotContain("Exception", "cannot instrument");
        }
        Recorded r = Recorded.read(dir);
        List<List<String>> between = betweenMarks(r);
        assertThat(between).hasSize(3); // marks 2 and 3 only: mark 1 ran before the agent
        assertThat(between.get(1)).contains("tick").doesNotContain("step");
        assertThat(r.trailer.written()).isEqualTo(r.trailer.produced());
    }

    /** Waits (at most 30 s) until the agent reports the weaving of its attach done. */
    static AgentState.Weaving awaitWeaving(LocalJvm jvm) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            AgentState.Weaving w = AgentState.Weaving.of(jvm.systemProperties());
            if (w != null && w.done()) {
                return w;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the attach's weaving did not finish within 30 s");
    }

    /** Sends "mark" and waits until the app has called Marks.mark(n). */
    static void mark(AgentJvm p, int n) throws Exception {
        p.send("mark");
        p.awaitLine("marked " + n);
    }

    /** Methods entered on the loop's main thread between consecutive marks. */
    static List<List<String>> betweenMarks(Recorded r) {
        List<List<String>> segments = new ArrayList<>();
        segments.add(new ArrayList<>());
        for (Rec x : r.thread("main")) {
            if (!x.isEnter()) {
                continue;
            }
            if (x.method().equals("mark")) {
                segments.add(new ArrayList<>());
            } else {
                segments.get(segments.size() - 1).add(x.method());
            }
        }
        return segments;
    }
}
