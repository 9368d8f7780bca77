package io.sonde.core.pipeline.packing;

/**
 * The bound on waiting: no record waits longer than {@code maxWaitNanos} between being produced and
 * its frame being handed to the writer (give or take one drain and one frame write).
 *
 * <p>The writer thread does not read record times; it bounds them instead. A drain takes what the
 * rings published up to the moment it read their positions, and the drain before it took everything
 * published up to its own moment, so every record a drain copies was produced after the previous
 * drain began. When a frame gets its first record, that previous drain's start is therefore a lower
 * bound of the frame's oldest record, and the frame is due {@code maxWaitNanos} later. The writer
 * thread polls at least every {@link #pollNanos()} (half the bound), so a record produced just after
 * a drain is taken by the next poll, well before its deadline.
 *
 * <p>Not thread-safe: one writer thread owns it. Times are {@link System#nanoTime()} values.
 */
public final class WaitBound {
    private final long maxWaitNanos;
    private long previousDrainStart;
    private long currentDrainStart;
    private long deadline;
    private boolean open;

    /**
     * @param maxWaitNanos the bound, positive
     * @param startNanos when the writer thread started (nothing older can be in a ring)
     */
    public WaitBound(long maxWaitNanos, long startNanos) {
        if (maxWaitNanos <= 0) throw new IllegalArgumentException("the wait bound must be positive, got " + maxWaitNanos + " ns");
        this.maxWaitNanos = maxWaitNanos;
        this.previousDrainStart = startNanos;
        this.currentDrainStart = startNanos;
    }

    public long maxWaitNanos() {
        return maxWaitNanos;
    }

    /** The longest the writer thread may sleep between two drains: half the bound (at least 1 ns). */
    public long pollNanos() {
        return Math.max(1, maxWaitNanos / 2);
    }

    /** A drain read the rings' positions at {@code now}. */
    public void drainStarted(long now) {
        previousDrainStart = currentDrainStart;
        currentDrainStart = now;
    }

    /** The current frame got its first record (or block) during the current drain. */
    public void frameOpened() {
        if (!open) {
            open = true;
            deadline = previousDrainStart + maxWaitNanos;
        }
    }

    /** The current frame was handed to the writer (or found empty); the next one is not open yet. */
    public void frameSent() {
        open = false;
    }

    /** True if a frame is open and its oldest possible record reached the bound at {@code now}. */
    public boolean due(long now) {
        return open && now - deadline >= 0;
    }

    /** When the writer thread must be awake next, given it would otherwise sleep until {@code wakeAt}. */
    public long nextWake(long wakeAt) {
        long poll = currentDrainStart + pollNanos();
        long t = wakeAt - poll < 0 ? wakeAt : poll;
        return open && deadline - t < 0 ? deadline : t;
    }
}
