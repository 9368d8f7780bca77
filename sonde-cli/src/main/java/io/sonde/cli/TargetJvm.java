package io.sonde.cli;

import io.sonde.core.control.ProbeControlClient;
import io.sonde.core.control.ProbeControlException;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code --pid PID} option of {@code sonde attach} and {@code sonde probes}: a JVM on this
 * machine of the same user. Inherited by sub-commands, so {@code sonde probes list --pid P} works
 * as well as {@code sonde probes --pid P list}.
 */
final class TargetJvm {

    @Option(names = "--pid", required = true, paramLabel = "PID", scope = ScopeType.INHERIT,
            description = "Process id of the JVM (this machine, same user).")
    long pid;

    /** The pid, refused when it is this sonde process (a JVM cannot attach to itself). */
    long pid() {
        if (pid == ProcessHandle.current().pid()) {
            throw new UserError("--pid " + pid + " is this sonde process itself");
        }
        return pid;
    }

    /** Connects to the agent's MBean; no agent becomes a one-line error with a hint. */
    ProbeControlClient connect() {
        try {
            return ProbeControlClient.attach(pid());
        } catch (ProbeControlException e) {
            throw e.reason() == ProbeControlException.Reason.NO_AGENT ? ProbesCommand.noAgent(e) : e;
        }
    }
}
