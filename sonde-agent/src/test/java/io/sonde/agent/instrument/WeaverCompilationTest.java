package io.sonde.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * The weaver's compiler directive in this (HotSpot) JVM: in place while the handle is open, gone
 * after it is closed, and the directives stack as it was before.
 */
class WeaverCompilationTest {

    private static String directives() throws Exception {
        return String.valueOf(ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesPrint",
                new Object[0], new String[0]));
    }

    @Test
    void theDirectiveHoldsWhileOpenAndIsRemovedOnClose() throws Exception {
        String before = directives();
        assertThat(before).doesNotContain("io/sonde/agent/instrument/*.*");
        try (WeaverCompilation c = WeaverCompilation.c2Off()) {
            String during = directives();
            assertThat(during).contains("io/sonde/agent/instrument/*.*", "io/sonde/agent/shaded/bytebuddy/jar/asm/*.*");
            // the directive's C2 block excludes, its C1 block does not
            assertThat(during.substring(during.indexOf("c2 directives"))).contains("Exclude:true");
        }
        assertThat(directives()).isEqualTo(before);
    }
}
