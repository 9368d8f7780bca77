package io.sonde.core.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fast attach handshake against real JVMs: it starts the attach listener (no thread dump on the
 * target's stdout, no attach file left behind) and an agent loads through it; and it stands aside, leaving the target unharmed,
 * where it must (a JVM started with -Xrs, a process that is no JVM, an attach already under way).
 */
@EnabledOnOs(OS.LINUX)
class AttachHandshakeTest {

    private static final long WAIT_NANOS = AttachTargetProcesses.WAIT_NANOS;

    @TempDir
    Path dir;

    @RegisterExtension
    final AttachTargetProcesses targets = new AttachTargetProcesses();

    @Test
    void startsTheListenerOfARunningJvmAndTheAttachConnects() throws Exception {
        Process p = startJvm("-Dattach.marker=fast");
        Path socket = Path.of("/tmp/.java_pid" + p.pid());
        // a fresh JVM has no attach listener yet: a file there is stale, of an earlier process with
        // this pid that was killed, and would fool the check below
        Files.deleteIfExists(socket);

        // with jdk.attach's sun.tools.attach open, as the sonde jar has it (this module's surefire argLine)
        assertThat(AttachHandshake.quitsNatively()).as("SIGQUIT by the JDK's native call").isTrue();
        assertThat(AttachHandshake.startListener(p.pid(), WAIT_NANOS)).isEqualTo(AttachHandshake.Outcome.STARTED);
        assertThat(socket).exists();
        assertThat(dir.resolve(".attach_pid" + p.pid())).as("attach file removed").doesNotExist();
        assertThat(AttachHandshake.startListener(p.pid(), WAIT_NANOS)).isEqualTo(AttachHandshake.Outcome.ALREADY_LISTENING);

        VirtualMachine vm = AttachHandshake.attach(p.pid());
        try {
            assertThat(vm.getSystemProperties().getProperty("attach.marker")).isEqualTo("fast");
            vm.loadAgent(agentJar().toString(), "x=1");
            assertThat(vm.getSystemProperties().getProperty(AttachTarget.LOADED_PROPERTY)).as("agent loaded").isEqualTo("x=1");
        } finally {
            vm.detach();
        }
        assertThat(p.isAlive()).isTrue();
        p.getOutputStream().close();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(Files.readString(dir.resolve("out.txt"))).as("SIGQUIT came with the attach file: no thread dump")
                .isEqualTo("ready\n");
    }

    @Test
    void anAttachFileAlreadyThereLeavesTheHandshakeToTheJdk() throws Exception {
        Process p = startJvm("-Dattach.marker=jdk");
        Path socket = Path.of("/tmp/.java_pid" + p.pid());
        Files.deleteIfExists(socket); // stale, as above
        Path trigger = Files.createFile(dir.resolve(".attach_pid" + p.pid())); // as an attach under way
        assertThat(AttachHandshake.startListener(p.pid(), WAIT_NANOS)).isEqualTo(AttachHandshake.Outcome.NOT_DONE);
        assertThat(trigger).as("not ours to delete").exists();
        assertThat(socket).doesNotExist();

        // the fallback: the JDK's own handshake (it finds the file, signals, sleeps, removes the file)
        VirtualMachine vm = AttachHandshake.attach(p.pid());
        try {
            assertThat(vm.getSystemProperties().getProperty("attach.marker")).isEqualTo("jdk");
        } finally {
            vm.detach();
        }
        assertThat(trigger).doesNotExist();
    }

    @Test
    void aJvmThatDoesNotCatchSigquitIsNotSignalled() throws Exception {
        Process p = startJvm("-Xrs");
        assertThat(AttachHandshake.startListener(p.pid(), WAIT_NANOS)).isEqualTo(AttachHandshake.Outcome.NOT_DONE);
        assertThat(dir.resolve(".attach_pid" + p.pid())).doesNotExist();
        p.getOutputStream().close();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("exited normally, not killed by SIGQUIT").isZero();
    }

    @Test
    void aProcessThatIsNoJvmOrNoProcessIsLeftAlone() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "600").start();
        try {
            assertThat(AttachHandshake.startListener(sleep.pid(), WAIT_NANOS)).isEqualTo(AttachHandshake.Outcome.NOT_DONE);
            assertThat(sleep.isAlive()).isTrue();
        } finally {
            sleep.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
        }
        long gone = ProcessHandle.allProcesses().mapToLong(ProcessHandle::pid).max().orElse(1) + 100_000;
        assertThat(AttachHandshake.startListener(gone, WAIT_NANOS)).isEqualTo(AttachHandshake.Outcome.NOT_DONE);
    }

    @Test
    void aProcessThatCatchesSigquitButIsNoJvmIsRefusedWithoutASignal() throws Exception {
        // a shell that catches SIGQUIT (as an init process may): the JDK's attach would signal it
        Path got = dir.resolve("got-quit");
        Process shell = new ProcessBuilder("bash", "-c", "trap 'touch " + got + "' QUIT; echo ready; while true; do sleep 0.05; done")
                .redirectErrorStream(true).start();
        try {
            assertThat(new String(shell.getInputStream().readNBytes(6))).isEqualTo("ready\n"); // the trap is set
            assertThatThrownBy(() -> AttachHandshake.attach(shell.pid())).isInstanceOf(AttachNotSupportedException.class)
                    .hasMessageContaining("process " + shell.pid() + " is not a Java VM (no libjvm.so in /proc/" + shell.pid() + "/maps)");
            Thread.sleep(200); // a signal sent would have run the trap by now (it runs between sleeps of 50 ms)
            assertThat(got).as("no SIGQUIT was sent").doesNotExist();
            assertThat(shell.isAlive()).isTrue();
        } finally {
            shell.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
        }
        // a JVM is one
        Process jvm = startJvm("-Dattach.marker=jvm");
        assertThat(AttachHandshake.notAJvm(jvm.pid())).isNull();
    }

    private Path agentJar() throws IOException {
        return AttachTargetProcesses.agentJar(dir);
    }

    private Process startJvm(String option) throws IOException, InterruptedException {
        return targets.start(dir, option);
    }
}
