package io.sonde.agent.instrument;

/**
 * The static entry points the woven code calls. Each is a one-line hand-off to the core, small
 * enough for the JIT to inline, so the extra hop costs nothing; it keeps the advice independent
 * of the core's class names. Lives on the bootstrap class path (see {@code SondeAgent}).
 */
public final class Hooks {

    private Hooks() {}

    /** Method entry: true when the call is recorded (probe on, thread monitored). */
    public static boolean enter(int probeId) {
        return STUB.enter(probeId);
    }

    /** Normal method exit. */
    public static void exit(int probeId, boolean entered) {
        STUB.exit(probeId, entered);
    }

    /** Exit by a thrown exception (which then continues to propagate). */
    public static void exitExceptionally(int probeId, boolean entered, Throwable thrown) {
        STUB.exitExceptionally(probeId, entered, thrown);
    }

    /** The current thread's trace position, or null when it is not inside a trace. */
    public static Object captureParent() {
        return STUB.captureParent();
    }

    /** Makes the next trace of this thread a child of {@code parent}; returns what to restore. */
    public static Object beginChild(Object parent) {
        return STUB.beginChild(parent);
    }

    /** Restores the state {@link #beginChild} returned. */
    public static void endChild(Object previous) {
        STUB.endChild(previous);
    }

    private static final StubCore STUB = new StubCore();

    static StubCore stub() {
        return STUB;
    }
}
