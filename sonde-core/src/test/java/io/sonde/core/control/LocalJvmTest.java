package io.sonde.core.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LocalJvm} and the client built on it against a real JVM: the weaver's compiler directive
 * added through the attach connection and removed again, leaving the target's directives as they
 * were; a client by pid waits while an attached agent's MBean is announced but not registered.
 * (This module's tests run with jdk.attach's {@code sun.tools.attach} exported, as the sonde jar's
 * manifest does.)
 */
@EnabledOnOs(OS.LINUX)
class LocalJvmTest {

    @TempDir
    Path dir;

    @RegisterExtension
    final AttachTargetProcesses targets = new AttachTargetProcesses();

    @Test
    void theWeaverDirectiveIsAddedAndRemovedThroughTheAttachConnection() throws Exception {
        Path tmp = Files.createDirectory(dir.resolve("tmp")); // the target's temporary directory
        Process p = targets.start(dir, "-Djava.io.tmpdir=" + tmp);
        try (LocalJvm jvm = LocalJvm.attach(p.pid())) {
            String before = jvm.diagnosticCommand("Compiler.directives_print");
            assertThat(before).as("diagnostic commands through the attach connection").isNotNull()
                    .contains("Directive: (default)").doesNotContain("io/sonde/agent/instrument/*.*");

            assertThat(jvm.addWeaverDirective(jvm.systemProperties())).isTrue();
            try (Stream<Path> left = Files.list(tmp)) {
                assertThat(left).as("the directive's file, read and deleted").isEmpty();
            }
            String during = jvm.diagnosticCommand("Compiler.directives_print");
            assertThat(during).contains("io/sonde/agent/instrument/*.*", "io/sonde/agent/shaded/bytebuddy/jar/asm/*.*");
            // the directive's C2 block excludes
            String ours = during.substring(during.indexOf("io/sonde/agent/instrument/*.*"));
            assertThat(ours.substring(ours.indexOf("c2 directives"))).contains("Exclude:true");

            assertThat(jvm.removeWeaverDirective()).isTrue();
            assertThat(jvm.diagnosticCommand("Compiler.directives_print")).isEqualTo(before);
        }
        assertThat(p.isAlive()).isTrue();
    }

    @Test
    void aClientByPidWaitsWhileTheMBeanIsAnnounced() throws Exception {
        Process p = targets.start(dir, "-D" + AgentState.MBEAN_PENDING_PROPERTY + "=true");
        CompletableFuture<ProbeControlException> client = CompletableFuture.supplyAsync(() -> {
            try (ProbeControlClient c = ProbeControlClient.attach(p.pid())) {
                return null;
            } catch (ProbeControlException e) {
                return e;
            }
        });
        // announced: the client cannot be done before the mark is gone, however slow the machine
        Thread.sleep(500);
        assertThat(client).as("waiting for the announced MBean").isNotDone();
        try (LocalJvm jvm = LocalJvm.attach(p.pid())) {
            jvm.loadAgent(AttachTargetProcesses.agentJar(dir), "clear=" + AgentState.MBEAN_PENDING_PROPERTY);
        }
        // the mark gone and no MBean registered (this target has none): the usual answer
        ProbeControlException e = client.get(60, TimeUnit.SECONDS);
        assertThat(e).isNotNull();
        assertThat(e.reason()).isEqualTo(ProbeControlException.Reason.NO_AGENT);
    }
}
