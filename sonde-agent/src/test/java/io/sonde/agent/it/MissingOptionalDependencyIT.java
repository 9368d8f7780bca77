package io.sonde.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.testing.AgentJvm;
import io.sonde.core.control.ProbeControlClient;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A class that mentions a type of an optional dependency missing at run time (in a field and in
 * two method signatures, one an instance method returning it, as H2's {@code ValueGeometry} returns
 * JTS's {@code Geometry}) keeps the probes of all its methods: weaving resolves no type of a
 * signature, so nothing of the class is skipped. The application runs in a child JVM whose class
 * path has the application class but not the dependency's (deleted from a copy of the classes).
 */
class MissingOptionalDependencyIT {

    private static final String APP = "io.sonde.agent.sample.OptionalUserApp";

    @TempDir
    Path dir;

    @Test
    void aClassWithAMissingOptionalTypeKeepsItsProbes() throws Exception {
        Path classes = dir.resolve("classes");
        Path appClass = Path.of(AgentProcess.TEST_CLASSES, "io/sonde/agent/sample/OptionalUserApp.class");
        Path copy = classes.resolve("io/sonde/agent/sample/OptionalUserApp.class");
        Files.createDirectories(copy.getParent());
        Files.copy(appClass, copy);
        assertThat(classes.resolve("io/sonde/agent/sample/optional/OptionalDependency.class")).doesNotExist();
        Path data = dir.resolve("data");
        try (AgentJvm p = AgentJvm.start("include=" + APP + ".*,file.dir=" + data, classes.toString(), APP)) {
            assertThat(p.awaitLine("ready")).isEqualTo("ready 90 optional");
            try (ProbeControlClient client = ProbeControlClient.attach(p.pid())) {
                assertThat(client.probes().listMatching("*OptionalUserApp.*"))
                        .as("every method with a body has its probe, those naming the missing type too")
                        .hasSize(5)
                        .anyMatch(l -> l.endsWith(APP + ".work (I)I"))
                        .anyMatch(l -> l.endsWith(APP + ".name ()Ljava/lang/String;"))
                        .anyMatch(l -> l.endsWith(APP + ".size (Lio/sonde/agent/sample/optional/OptionalDependency;)I"))
                        .anyMatch(l -> l.endsWith(APP + ".dependency ()Lio/sonde/agent/sample/optional/OptionalDependency;"));
                assertThat(client.probes().getInstrumentedClassCount()).isEqualTo(1);
                assertThat(client.probes().getCounters())
                        .as("the weaving counters: the class woven, nothing failed")
                        .contains("weave.classes=1", "weave.failed=0", "weave.max.class=" + APP)
                        .anyMatch(c -> c.matches("weave\\.ms=\\d+\\.\\d"));
            }
            p.send("stop");
            p.awaitLine("done");
            assertThat(p.awaitExit()).isZero();
            assertThat(p.stderr()).doesNotContain("cannot instrument", "Exception", "Error");
        }
        Recorded r = Recorded.read(data);
        assertThat(r.enters(".work")).isEqualTo(10);
        assertThat(r.enters(".name")).isEqualTo(1);
        assertThat(r.enters(".main")).isEqualTo(1);
    }
}
