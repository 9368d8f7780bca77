package io.sonde.core.pipeline.packing;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The writer thread's packing decisions: how many data records go into one frame (the packing
 * degree) and whether a bound on waiting applies. The modes, chosen by the {@code packing} key:
 *
 * <ul>
 *   <li>{@code fill} (the default, Sonde's behaviour before packing existed): a frame takes records
 *       until the next one would make it larger than {@code frame.bytes}; partial frames go out every
 *       {@code flush.interval.ms}. No degree limit, no wait bound of its own.</li>
 *   <li>{@code static:N} ({@code none} = {@code static:1}, one record per frame): at most N data
 *       records per frame (and never more than {@code frame.bytes}); a partial frame goes out when
 *       its oldest record would otherwise wait longer than {@code packing.maxwait.ms}.</li>
 *   <li>{@code adaptive} ({@code adaptive:cpu} is the same): like static, with N = 2^i where the
 *       index i follows the measured cost with the paper's refined rule ({@link HillClimbing}):
 *       every {@code packing.interval.ms} the current degree and a neighbour (its partner) are
 *       compared by {@link PairedComparison} on interleaved slices of that interval, and i takes one
 *       step or stays; i starts at 0 and stays within [0, log2 of the largest degree a frame can
 *       hold], and the degree in effect is 2^i or, where fewer records fit, the largest power of
 *       two that fits (below). A slice's cost is the writer thread's own CPU time per record written (the inverse
 *       of its service rate): records per wall-clock second also move with the CPU share the
 *       process gets, which the degree cannot influence, and on a loaded machine that share changes
 *       within tens of milliseconds by more than neighbouring degrees differ. On a JVM that does not
 *       measure thread CPU time, {@code adaptive} falls back to {@code adaptive:wall}.</li>
 *   <li>{@code adaptive:wall}: the same with the paper's measure, wall-clock time per record
 *       written (records per second).</li>
 * </ul>
 * The degree counts records, as in the paper: a frame costs the writer and the receiver a fixed
 * amount (a system call, a header, a checksum start, an envelope) besides the bytes, and records per
 * frame is what amortizes it. Because the best count depends on the record size, a fixed count
 * cannot be right for every source; the adaptive mode finds it. {@code frame.bytes} still caps
 * every frame, so a large static degree with large records simply gives full frames.
 *
 * <p>The degree in effect is never above the largest power of two whose records fit in one frame
 * ({@link #fitFrames}: the frame's room for records over the mean size of the records written in
 * the last measuring interval, so it follows a source whose record size changes). A higher rung
 * would not run at its degree: the byte cap would cut its frames short, at a count that is no rung
 * of the ladder (262 records of 1,000 bytes in 256 KiB), and every such rung would send the same
 * frames. The rule's index may stand above that degree (comparisons there are of the same frames
 * and come out equal, the paper's steady state) and keeps its place when the records shrink again.
 * (The packing study found the climber among such rungs, sending capped frames that carried
 * 14-16 % less than frames of the power of two below: docs/benchmarks.md.)
 *
 * <p>Written by the writer thread only; {@link #recordsPerFrame()} and the counters may be read by
 * any thread (volatile).
 */
public final class Packing {
    /** The packing modes (see the class comment). */
    public enum Mode { FILL, STATIC, ADAPTIVE }

    private final Mode mode;
    private final long maxWaitNanos;
    private final HillClimbing climber;
    /** Adaptive: the writer thread's CPU clock (ns); null: cost is wall-clock time (adaptive:wall). */
    private final LongSupplier cpuClock;
    /** Adaptive: the spelling it was configured with (adaptive, adaptive:cpu, adaptive:wall). */
    private String name;
    private volatile int recordsPerFrame;
    private volatile long adaptations;

    /** Adaptive: the comparison being measured and the current slice (see {@link #observe}); null/unused otherwise. */
    private final PairedComparison comparison;
    private final long sliceNanos;
    private boolean measuring;
    private int slot;
    private long sliceStart;
    private long sliceRecords;
    private long sliceCost;
    private double firstCost;
    /** Adaptive: bytes of records one frame holds (0: not known, the degree is not limited by record size). */
    private int frameRoom;
    /** Adaptive: the largest power of two whose records, at the last interval's mean size, fit in one frame. */
    private int fittingDegree = Integer.MAX_VALUE;
    /** Adaptive: the running totals when the current measuring interval began, for the mean record size. */
    private long intervalRecords;
    private long intervalBytes;

    private Packing(Mode mode, int recordsPerFrame, long maxWaitNanos, long intervalNanos, HillClimbing climber, LongSupplier cpuClock) {
        this.cpuClock = cpuClock;
        this.name = cpuClock == null ? "adaptive:wall" : "adaptive:cpu";
        this.mode = mode;
        this.recordsPerFrame = recordsPerFrame;
        this.maxWaitNanos = maxWaitNanos;
        this.climber = climber;
        this.comparison = climber == null ? null : new PairedComparison();
        this.sliceNanos = Math.max(1, intervalNanos / (2 * PairedComparison.PAIRS));
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
     * The degree 2^i adapts at most once every {@code intervalNanos} with {@link HillClimbing} on
     * {@link PairedComparison}s (see {@link #observe}), i in [0, log2 {@code maxDegree}], starting at
     * 0 (one record per frame).
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
     * and {@code adaptive:cpu} (the writer thread's CPU clock: {@link ThreadMXBean#getCurrentThreadCpuTime()};
     * {@code adaptive} uses the wall clock where the JVM does not measure it) or {@code adaptive:wall}.
     *
     * @param maxDegree the largest degree a frame can hold (the adaptive mode's upper bound)
     * @throws IllegalArgumentException naming the key and what is wrong
     */
    public static Packing parse(String spec, long maxWaitNanos, long intervalNanos, int maxDegree) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        if (s.equals("fill")) return fill();
        if (s.equals("none")) return fixed(1, maxWaitNanos);
        if (s.equals("adaptive:wall")) return adaptive(maxDegree, maxWaitNanos, intervalNanos, null).named(s);
        if (s.equals("adaptive") || s.equals("adaptive:cpu")) {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            if (!threads.isCurrentThreadCpuTimeSupported()) {
                if (s.equals("adaptive")) return adaptive(maxDegree, maxWaitNanos, intervalNanos, null).named("adaptive:wall");
                throw new IllegalArgumentException("packing: adaptive:cpu needs thread CPU time, which this JVM does not measure");
            }
            return adaptive(maxDegree, maxWaitNanos, intervalNanos, threads::getCurrentThreadCpuTime).named(s);
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
        throw new IllegalArgumentException("packing: must be fill, none, static:N, adaptive, adaptive:cpu or adaptive:wall");
    }

    private Packing named(String spelling) {
        name = spelling;
        return this;
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

    /**
     * Adaptive mode: the current degree index (degree = 2^index); -1 in the other modes. During
     * the partner's measuring slices {@link #recordsPerFrame()} is the partner's degree instead.
     */
    public int degreeIndex() {
        return climber == null ? -1 : climber.index();
    }

    /** Adaptive mode: the largest degree in effect now (2^max index, or less where the records fit fewer, see {@link #fitFrames}); -1 in the other modes. */
    public int largestDegree() {
        return climber == null ? -1 : Math.min(1 << climber.maxIndex(), fittingDegree);
    }

    /** Adaptive mode: the comparisons decided (= updates of the degree, moved or not) so far. */
    public long adaptations() {
        return adaptations;
    }

    /**
     * Adaptive mode: the bytes of records one frame holds ({@code frame.bytes} less the frame's
     * and one thread block's headers), so that the degree in effect stops at the largest power of two whose records
     * fit (see the class comment). Without it (or in the other modes) nothing changes.
     */
    public void fitFrames(int roomBytes) {
        frameRoom = Math.max(0, roomBytes);
    }

    /**
     * Writer thread, after each drain: in adaptive mode, runs the measuring slices and, once
     * {@link PairedComparison#PAIRS} pairs of them are in, lets the degree take its next step.
     *
     * <p>A measuring interval ({@code packing.interval.ms}) is 2 x {@link PairedComparison#PAIRS}
     * slices, alternately at the current degree and at its partner (the neighbour it is compared
     * with) in the order index, partner, partner, index, ... (so a steady drift weighs on both
     * alike). A slice's cost is the writer thread's CPU time (adaptive, adaptive:cpu) or the
     * wall-clock time (adaptive:wall) per data record written during it; a slice without records
     * gives no cost and its pair is not counted, so an idle source never moves the degree.
     *
     * @param recordsWritten data records written since the start (a running total)
     * @param recordBytesWritten the bytes of those records, as in the rings (a running total; 0
     *     when not known: the degree is then not limited by record size)
     */
    public void observe(long now, long recordsWritten, long recordBytesWritten) {
        if (climber == null) return;
        if (!measuring) {
            measuring = true;
            intervalRecords = recordsWritten;
            intervalBytes = recordBytesWritten;
            startSlice(now, recordsWritten, costClock(now));
            return;
        }
        if (now - sliceStart < sliceNanos) return;
        long cost = costClock(now);
        long records = recordsWritten - sliceRecords;
        double perRecord = records > 0 ? (double) (cost - sliceCost) / records : Double.NaN;
        if ((slot & 1) == 0) {
            firstCost = perRecord;
        } else {
            boolean indexFirst = slot == 1; // slots 0, 1: index then partner; slots 2, 3: partner then index
            double indexCost = indexFirst ? firstCost : perRecord;
            double partnerCost = indexFirst ? perRecord : firstCost;
            if (comparison.add(indexCost, partnerCost)) {
                climber.update(comparison.verdict());
                fitRecords(recordsWritten - intervalRecords, recordBytesWritten - intervalBytes);
                intervalRecords = recordsWritten;
                intervalBytes = recordBytesWritten;
                adaptations++;
                slot = -1; // the next pair starts at the (new) index
            }
        }
        slot = (slot + 1) & 3;
        startSlice(now, recordsWritten, cost);
    }

    /** The largest power of two whose records, at the interval's mean size, fit in a frame (kept when the interval wrote nothing). */
    private void fitRecords(long records, long bytes) {
        if (frameRoom <= 0 || records <= 0 || bytes <= 0) return;
        long fitting = frameRoom * records / bytes; // records of the mean size that fit in one frame
        fittingDegree = fitting < 1 ? 1 : (int) Long.highestOneBit(Math.min(fitting, 1 << 30));
    }

    private long costClock(long now) {
        return cpuClock != null ? cpuClock.getAsLong() : now;
    }

    private void startSlice(long now, long recordsWritten, long cost) {
        sliceStart = now;
        sliceRecords = recordsWritten;
        sliceCost = cost;
        boolean atIndex = slot == 0 || slot == 3;
        recordsPerFrame = Math.min(1 << (atIndex ? climber.index() : climber.partner()), fittingDegree);
    }

    @Override
    public String toString() {
        return switch (mode) {
            case FILL -> "fill";
            case STATIC -> "static:" + recordsPerFrame;
            case ADAPTIVE -> name + " (degree " + recordsPerFrame + ")";
        };
    }
}
