package io.sonde.core.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LocalJvm}'s diagnostic commands against a real JVM: the weaver's compiler directive added
 * through the attach connection and removed again, leaving the target's directives as they were.
 * (This module's tests run with jdk.attach's {@code sun.tools.attach} exported, as the sonde jar's
 * manifest does.)
 */
@EnabledOnOs(OS.LINUX)
class LocalJvmTest {

    @TempDir
    Path dir;

    private final AttachTargetProcesses targets = new AttachTargetProcesses();

    @AfterEach
    void stop() throws Exception {
        targets.close();
    }

    @Test
    void theWeaverDirectiveIsAddedAndRemovedThroughTheAttachConnection() throws Exception {
        Process p = targets.start(dir, "-Dattach.marker=directive");
        try (LocalJvm jvm = LocalJvm.attach(p.pid())) {
            String before = jvm.diagnosticCommand("Compiler.directives_print");
            assertThat(before).as("diagnostic commands through the attach connection").isNotNull()
                    .contains("Directive: (default)").doesNotContain("io/sonde/agent/instrument/*.*");

            assertThat(jvm.addWeaverDirective(jvm.systemProperties())).isTrue();
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
}
