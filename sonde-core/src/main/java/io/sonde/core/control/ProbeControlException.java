package io.sonde.core.control;

/**
 * A failure to reach or to use the agent's {@link ProbeControlMBean}: the message names the
 * process (or JMX address) and the cause, in one line fit for a user.
 */
public final class ProbeControlException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What went wrong, for callers that react differently (e.g. "agent loaded with jmx=off"). */
    public enum Reason {
        /** No such process, or the process is the caller itself. */
        NO_PROCESS,
        /** The attach API could not attach, or the target refused to load the agent. */
        ATTACH,
        /** The process runs no Sonde agent, or one with {@code jmx=off}. */
        NO_AGENT,
        /** The JMX connection could not be made, or was lost. */
        CONNECTION,
        /** The agent's MBean threw while running an operation. */
        CALL
    }

    private final Reason reason;

    public ProbeControlException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public ProbeControlException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    /** Why it failed. */
    public Reason reason() {
        return reason;
    }
}
