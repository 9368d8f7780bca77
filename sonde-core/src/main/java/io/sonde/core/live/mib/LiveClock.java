package io.sonde.core.live.mib;

/**
 * The live layer's time: epoch nanoseconds that never go backwards (event timestamps, batch
 * deadlines, periods). Injectable so that tests drive QoS timing without sleeping.
 */
@FunctionalInterface
public interface LiveClock {
    long nanos();

    /** {@code System.nanoTime()} anchored once to the wall clock: monotonic, epoch-based. */
    static LiveClock system() {
        long anchor = System.currentTimeMillis() * 1_000_000L - System.nanoTime();
        return () -> anchor + System.nanoTime();
    }
}
