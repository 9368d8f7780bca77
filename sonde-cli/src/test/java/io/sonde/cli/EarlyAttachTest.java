package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.core.control.ProbeControlException;
import org.junit.jupiter.api.Test;

/**
 * The attach started before picocli parses: only for {@code attach} command lines with a pid and
 * no request for help, and its failure given to the command as {@code LocalJvm.attach} gives it.
 */
class EarlyAttachTest {

    @Test
    void startsOnlyForAnAttachWithAPid() {
        assertThat(EarlyAttach.pidOf("attach", "--pid", "4711", "include=a.*")).isEqualTo(4711L);
        assertThat(EarlyAttach.pidOf("attach", "include=a.*", "--pid=4711")).isEqualTo(4711L);
        assertThat(EarlyAttach.pidOf("attach", "--agent", "x.jar", "--pid", " 42 ")).isEqualTo(42L);

        assertThat(EarlyAttach.pidOf()).isNull();
        assertThat(EarlyAttach.pidOf("probes", "--pid", "4711", "status")).as("another command").isNull();
        assertThat(EarlyAttach.pidOf("attach", "include=a.*")).as("no pid").isNull();
        assertThat(EarlyAttach.pidOf("attach", "--pid")).as("no value").isNull();
        assertThat(EarlyAttach.pidOf("attach", "--pid", "abc")).as("not a number: picocli reports it").isNull();
        assertThat(EarlyAttach.pidOf("attach", "--pid", "4711", "--help")).as("help").isNull();
        assertThat(EarlyAttach.pidOf("attach", "-h", "--pid", "4711")).as("help").isNull();
        assertThat(EarlyAttach.pidOf("attach", "--pid", "4711", "-V")).as("version").isNull();
        assertThat(EarlyAttach.pidOf("attach", "--", "--pid", "4711")).as("after the end of options").isNull();
    }

    @Test
    void aFailedEarlyAttachFailsAsTheAttachItself() {
        long gone = ProcessHandle.allProcesses().mapToLong(ProcessHandle::pid).max().orElse(1) + 100_000;
        EarlyAttach early = EarlyAttach.startFor("attach", "--pid", Long.toString(gone));
        assertThat(early).isNotNull();
        try {
            assertThatThrownBy(() -> EarlyAttach.attach(gone)).isInstanceOf(ProbeControlException.class)
                    .hasMessage("no process with pid " + gone);
        } finally {
            early.closeIfUntaken();
        }
        assertThat(EarlyAttach.startFor("attach", "--pid", Long.toString(ProcessHandle.current().pid())))
                .as("not this process").isNull();
    }
}
