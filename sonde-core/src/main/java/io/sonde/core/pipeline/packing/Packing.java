package io.sonde.core.pipeline.packing;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The writer thread's packing decisions: how many data records go into one frame (the packing
 * degree) and whether a bound on waiting applies. Three modes, chosen by the {@code packing} key:
 *
 * <ul>
 *   <li>{@code fill} (the default, Sonde's behaviour before packing existed): a frame takes records
 *       until the next one would make it larger than {@code frame.bytes}; partial frames go out every
 *       {@code flush.interval.ms}. No degree limit, no wait bound of its own.</li>
 *   <li>{@code static:N} ({@code none} = {@code static:1}, one record per frame): at most N data
 *       records per frame (and never more than {@code frame.bytes}); a partial frame goes out when
 *       its oldest record would otherwise wait longer than {@code packing.maxwait.ms}.</li>
 *   <li>{@code adaptive}: like static, with N = 2^i where the index i follows the measured
 *       throughput (records written per second, over {@code packing.interval.ms}) with
 *       {@link HillClimbing}; i starts at 0 and stays within [0, log2 of the largest degree a frame
 *       can hold].</li>
 *   <li>{@code adaptive:cpu}: the same rule, but the throughput is records written per second of
 *       the writer thread's own CPU time (its service rate). On a machine whose other load comes and
 *       goes, records per wall-clock second move with the CPU share the process gets, which the
 *       degree cannot influence; per CPU second they move with what packing changes. It rewards
 *       larger degrees also when the source, not the writer, is the bottleneck (fewer frames cost
 *       less CPU), so there the wait bound decides when frames go.</li>
 * </ul>
 * The degree counts records, as in the paper: a frame costs the writer and the receiver a fixed
 * amount (a system call, a header, a checksum start, an envelope) besides the bytes, and records per
 * frame is what amortizes it. Because the best count depends on the record size, a fixed count
 * cannot be right for every source; the adaptive mode finds it. {@code frame.bytes} still caps
 * every frame, so a large degree with large records simply gives full frames.
 *
 * <p>Written by the writer thread only; {@link #recordsPerFrame()} and the counters may be read by
 * any thread (volatile).
 */
public final class Packing {
    /** The packing modes (see the class comment). */
    public enum Mode { FILL, STATIC, ADAPTIVE }

    private final Mode mode;
    private final long maxWaitNanos;
    private final long intervalNanos;
    private final HillClimbing climber;
    /** adaptive:cpu: the writer thread's CPU clock (ns); null: throughput per wall-clock second. */
    private final LongSupplier cpuClock;
    private volatile int recordsPerFrame;
    private volatile long adaptations;

    private long intervalStart;
    private long intervalRecords;
    private long intervalCpu;
    private boolean measuring;

    private Packing(Mode mode, int recordsPerFrame, long maxWaitNanos, long intervalNanos, HillClimbing climber, LongSupplier cpuClock) {
        this.cpuClock = cpuClock;
        this.mode = mode;
        this.recordsPerFrame = recordsPerFrame;
        this.maxWaitNanos = maxWaitNanos;
        this.intervalNanos = intervalNanos;
        this.climber = climber;
    }

    /** Frames filled up to their byte size; no degree, no wait bound (partial frames go out every flush interval). */
    public static Packing fill() {
        return new Packing(Mode.FILL, Integer.MAX_VALUE, 0, 0, null, null);
    }

    /** At most {@code recordsPerFrame} data records per frame; none waits longer than {@code maxWaitNanos}. */
    public static Packing fixed(int recordsPerFrame, long maxWaitNanos) {
        if (recordsPerFrame < 1) throw new IllegalArgumentException("records per frame must be at least 1, got " + recordsPerFrame);
        checkWait(maxWaitNanos);
        return new Packing(Mode.STATIC, recordsPerFrame, maxWaitNanos, 0, null, null);
    }

    /**
     * The degree 2^i adapts every {@code intervalNanos} with {@link HillClimbing}, i in [0, log2
     * {@code maxDegree}], starting at 0 (one record per frame).
     *
     * @param cpuClock null: throughput is records per wall-clock second; else the CPU clock (ns) of
     *     the thread that calls {@link #observe}, and throughput is records per second of it
     */
    public static Packing adaptive(int maxDegree, long maxWaitNanos, long intervalNanos, LongSupplier cpuClock) {
        if (maxDegree < 1) throw new IllegalArgumentException("largest degree must be at least 1, got " + maxDegree);
        checkWait(maxWaitNanos);
        if (intervalNanos <= 0) throw new IllegalArgumentException("the measuring interval must be positive, got " + intervalNanos + " ns");
        int maxIndex = 31 - Integer.numberOfLeadingZeros(maxDegree);
        return new Packing(Mode.ADAPTIVE, 1, maxWaitNanos, intervalNanos, new HillClimbing(0, maxIndex, 0), cpuClock);
    }

    /**
     * Parses the {@code packing} key: {@code fill}, {@code none}, {@code static:N}, {@code adaptive}
     * or {@code adaptive:cpu} (the writer thread's CPU clock: {@link ThreadMXBean#getCurrentThreadCpuTime()}).
     *
     * @param maxDegree the largest degree a frame can hold (the adaptive mode's upper bound)
     * @throws IllegalArgumentException naming the key and what is wrong
     */
    public static Packing parse(String spec, long maxWaitNanos, long intervalNanos, int maxDegree) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        if (s.equals("fill")) return fill();
        if (s.equals("none")) return fixed(1, maxWaitNanos);
        if (s.equals("adaptive")) return adaptive(maxDegree, maxWaitNanos, intervalNanos, null);
        if (s.equals("adaptive:cpu")) {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            if (!threads.isCurrentThreadCpuTimeSupported()) {
                throw new IllegalArgumentException("packing: adaptive:cpu needs thread CPU time, which this JVM does not measure");
            }
            return adaptive(maxDegree, maxWaitNanos, intervalNanos, threads::getCurrentThreadCpuTime);
        }
        if (s.startsWith("static:")) {
            int n;
            try {
                n = Integer.parseInt(s.substring("static:".length()));
            } catch (NumberFormatException e) {
                n = 0;
            }
            if (n < 1) {
                throw new IllegalArgumentException("packing: 'static:N' needs N, a whole number of records per frame of at least 1"
                        + " and at most " + Integer.MAX_VALUE);
            }
            return fixed(n, maxWaitNanos);
        }
        throw new IllegalArgumentException("packing: must be fill, none, static:N, adaptive or adaptive:cpu");
    }

    private static void checkWait(long maxWaitNanos) {
        if (maxWaitNanos <= 0) throw new IllegalArgumentException("the wait bound must be positive, got " + maxWaitNanos + " ns");
    }

    public Mode mode() {
        return mode;
    }

    /** True unless {@link Mode#FILL}: a degree limit and the wait bound apply. */
    public boolean waitBounded() {
        return mode != Mode.FILL;
    }

    /** The wait bound in ns (0 for {@link Mode#FILL}). */
    public long maxWaitNanos() {
        return maxWaitNanos;
    }

    /** The current degree: data records per frame at most ({@link Integer#MAX_VALUE} for {@link Mode#FILL}). */
    public int recordsPerFrame() {
        return recordsPerFrame;
    }

    /** Adaptive mode: the current degree index (degree = 2^index); -1 in the other modes. */
    public int degreeIndex() {
        return climber == null ? -1 : climber.index();
    }

    /** Adaptive mode: the throughput measurements taken (= updates of the degree) so far. */
    public long adaptations() {
        return adaptations;
    }

    /**
     * Writer thread, after each drain: in adaptive mode, once a measuring interval has passed, the
     * records written during it give the throughput and the degree takes its next step.
     *
     * @param recordsWritten data records written since the start (a running total)
     */
    public void observe(long now, long recordsWritten) {
        if (climber == null) return;
        if (!measuring) {
            measuring = true;
            intervalStart = now;
            intervalRecords = recordsWritten;
            if (cpuClock != null) intervalCpu = cpuClock.getAsLong();
            return;
        }
        long elapsed = now - intervalStart;
        if (elapsed < intervalNanos) return;
        if (cpuClock != null) {
            long cpu = cpuClock.getAsLong();
            elapsed = Math.max(1, cpu - intervalCpu);
            intervalCpu = cpu;
        }
        double throughput = (recordsWritten - intervalRecords) * 1e9 / elapsed;
        recordsPerFrame = 1 << climber.update(throughput);
        adaptations++;
        intervalStart = now;
        intervalRecords = recordsWritten;
    }

    @Override
    public String toString() {
        return switch (mode) {
            case FILL -> "fill";
            case STATIC -> "static:" + recordsPerFrame;
            case ADAPTIVE -> (cpuClock == null ? "adaptive" : "adaptive:cpu") + " (degree " + recordsPerFrame + ")";
        };
    }
}
