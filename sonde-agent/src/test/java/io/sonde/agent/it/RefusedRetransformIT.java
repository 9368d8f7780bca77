package io.sonde.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.testing.AgentJvm;
import io.sonde.core.control.AgentState;
import io.sonde.core.control.LocalJvm;
import io.sonde.core.control.ProbeControlClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An attach into a JVM holding a class the JVM refuses to re-define (loaded, but it never linked:
 * its optional dependency is absent, as H2's {@code FullTextLucene} without Lucene): the refused
 * re-transformation batch is split, every other class is woven and records, and the refused class
 * is counted and reported once, by name and reason. The progress never passes its total.
 */
class RefusedRetransformIT {

    private static final String APP = "io.sonde.agent.sample.UnlinkableApp";

    @TempDir
    Path dir;

    @Test
    void aClassTheJvmRefusesIsReportedOnceAndTheOthersAreWoven() throws Exception {
        Path classes = dir.resolve("classes");
        Path sample = Path.of(AgentProcess.TEST_CLASSES, "io/sonde/agent/sample");
        Files.createDirectories(classes.resolve("io/sonde/agent/sample"));
        try (Stream<Path> files = Files.list(sample)) {
            for (Path f : (Iterable<Path>) files.filter(f -> f.getFileName().toString().startsWith("UnlinkableApp"))::iterator) {
                Files.copy(f, classes.resolve("io/sonde/agent/sample").resolve(f.getFileName()));
            }
        }
        assertThat(classes.resolve("io/sonde/agent/sample/optional")).doesNotExist();
        Path data = dir.resolve("data");
        try (AgentJvm p = AgentJvm.start(null, classes.toString(), APP)) {
            assertThat(p.awaitLine("ready")).isEqualTo("ready unlinkable");
            AgentState.Weaving w;
            try (LocalJvm jvm = LocalJvm.attach(p.pid())) {
                jvm.loadAgent(AgentJvm.AGENT_JAR.toAbsolutePath(), "include=" + APP + "*,file.dir=" + data);
                w = SwitchingIT.awaitWeaving(jvm);
            }
            assertThat(w.total()).as("UnlinkableApp, Helper and Unlinkable chosen").isEqualTo(3);
            assertThat(w.woven()).as("all but the refused class").isEqualTo(2);
            try (ProbeControlClient client = ProbeControlClient.attach(p.pid())) {
                assertThat(client.probes().getCounters())
                        .contains("weave.failed=1")
                        .anyMatch(c -> c.startsWith("weave.failed.class " + APP + "$Unlinkable: "));
                assertThat(client.probes().listMatching("*"))
                        .anyMatch(l -> l.endsWith(APP + ".tick (I)I"))
                        .anyMatch(l -> l.endsWith(APP + "$Helper.twice (I)I"));
            }
            p.send("tick");
            assertThat(p.awaitLine("ticked")).isEqualTo("ticked 1");
            p.send("stop");
            p.awaitLine("done");
            assertThat(p.awaitExit()).isZero();
            String stderr = p.stderr();
            assertThat(stderr.split("cannot re-transform " + java.util.regex.Pattern.quote(APP + "$Unlinkable"), -1))
                    .as("reported once: " + stderr).hasSize(2);
            assertThat(stderr).doesNotContain("cannot instrument");
        }
        Recorded r = Recorded.read(data);
        assertThat(r.enters(".tick")).isEqualTo(1);
        assertThat(r.enters("$Helper.twice")).isEqualTo(1);
    }
}
