package io.sonde.core.control;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Properties;

/**
 * A JVM on this machine reached through the attach API ({@code jdk.attach}; same user; the first
 * attach without the JDK's sleep, see {@link AttachHandshake}): loads agents and reads system
 * properties. Every failure is a {@link ProbeControlException} naming the
 * process. Close to detach.
 */
public final class LocalJvm implements AutoCloseable {

    private final long pid;
    private final VirtualMachine vm;

    private LocalJvm(long pid, VirtualMachine vm) {
        this.pid = pid;
        this.vm = vm;
    }

    /**
     * Attaches to process {@code pid}.
     *
     * @throws ProbeControlException NO_PROCESS for no such process or this process itself,
     *     ATTACH when the attach API fails (not a JVM, another user, attach listener not up yet)
     */
    public static LocalJvm attach(long pid) {
        if (pid == ProcessHandle.current().pid()) {
            throw new ProbeControlException(ProbeControlException.Reason.NO_PROCESS,
                    "process " + pid + " is this JVM itself");
        }
        if (ProcessHandle.of(pid).isEmpty()) {
            throw new ProbeControlException(ProbeControlException.Reason.NO_PROCESS, "no process with pid " + pid);
        }
        try {
            return new LocalJvm(pid, AttachHandshake.attach(pid));
        } catch (AttachNotSupportedException | IOException e) {
            throw new ProbeControlException(ProbeControlException.Reason.ATTACH,
                    "cannot attach to process " + pid + " (is it a JVM of the same user?): " + e.getMessage(), e);
        }
    }

    /** The process id. */
    public long pid() {
        return pid;
    }

    /**
     * Loads a Java agent jar ({@code Agent-Class}) with the given options string and waits for
     * its {@code agentmain} to return.
     */
    public void loadAgent(Path jar, String options) {
        try {
            vm.loadAgent(jar.toString(), options);
        } catch (AgentLoadException | AgentInitializationException e) {
            throw new ProbeControlException(ProbeControlException.Reason.ATTACH,
                    "process " + pid + " could not load the agent " + jar + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new ProbeControlException(ProbeControlException.Reason.ATTACH,
                    "lost the attach connection to process " + pid + ": " + e.getMessage(), e);
        }
    }

    /** The target's system properties as they are now. */
    public Properties systemProperties() {
        try {
            return vm.getSystemProperties();
        } catch (IOException e) {
            throw new ProbeControlException(ProbeControlException.Reason.ATTACH,
                    "lost the attach connection to process " + pid + ": " + e.getMessage(), e);
        }
    }

    /** Detaches; a target that is gone or closed the connection needs no clean-up. */
    @Override
    public void close() {
        try {
            vm.detach();
        } catch (IOException e) {
            // nothing left to release
        }
    }
}
