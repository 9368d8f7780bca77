package io.sonde.agent.instrument;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * What weaving costs. Always counted (two clock readings per transformer call, nothing against the
 * milliseconds a class takes to weave): classes woven, their total and largest weaving time, and the
 * classes that could not be woven with the reason ({@link #counters()}, shown by {@code sonde probes
 * status}). With {@code weave.stats=on}, also where the time goes: counts and nanoseconds per phase,
 * added up over every class the JVM hands to the agent; off, the phase methods return at once
 * without reading the clock.
 *
 * <p>The phases nest: {@link Phase#TRANSFORM_WOVEN} and {@link Phase#TRANSFORM_PASSED} are whole
 * calls of the agent's class-file transformer; matching, class-file look-ups (the type
 * resolution's reads of other classes: super types, signature types) and probe registration
 * happen inside them (matching also outside, when loaded classes are chosen for
 * re-transformation). What is left of a woven class's time is Byte Buddy parsing the class,
 * inlining the advice and writing the class file. Re-transformation batches are whole
 * {@code Instrumentation.retransformClasses} calls: the JVM's redefinition plus the transformer
 * calls inside them.
 */
public final class WeaveStats {

    /** One timed phase. */
    public enum Phase {
        /** Transformer calls that returned a woven class. */
        TRANSFORM_WOVEN("transform, woven"),
        /** Transformer calls that left the class alone (not selected, ignored, failed). */
        TRANSFORM_PASSED("transform, passed over"),
        /** Ignore and type matchers: does this class need weaving at all. */
        MATCH("matching"),
        /** Class files of other types read for type resolution. */
        LOOKUP("class-file lookups"),
        /** Probes registered (one per woven method). */
        PROBE_IDS("probe registration"),
        /** {@code retransformClasses} calls (start-up and attach). */
        BATCH("re-transformation batches");

        final String label;

        Phase(String label) {
            this.label = label;
        }
    }

    /** Woven classes counted as the weaver's warm-up (its own code runs interpreted at first). */
    static final int WARM_UP_CLASSES = 100;

    private final boolean on;
    private final LongAdder[] counts = new LongAdder[Phase.values().length];
    private final LongAdder[] nanos = new LongAdder[Phase.values().length];
    private final LongAdder warmUpNanos = new LongAdder();
    private final LongAdder warmUpCount = new LongAdder();
    private final long compileMillisAtStart;

    /** Classes that could not be woven listed by name in {@link #counters()}; the rest only counted. */
    static final int FAILURES_LISTED = 20;

    // Always on. Woven classes are counted by the transformer; the largest time and its class are
    // guarded by this (a rare, short lock next to a millisecond of weaving).
    private final LongAdder wovenClasses = new LongAdder();
    private final LongAdder wovenNanos = new LongAdder();
    private final LongAdder weavingCpu = new LongAdder();
    private volatile java.lang.management.ThreadMXBean cpuClock;
    private final LongAdder failedClasses = new LongAdder();
    private final LongAdder refusedCalls = new LongAdder();
    private long maxNanos;
    private String maxClass;
    private final List<String> failures = new ArrayList<>();

    /** @param on false: nothing is measured */
    public WeaveStats(boolean on) {
        this.on = on;
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
            nanos[i] = new LongAdder();
        }
        this.compileMillisAtStart = on ? compileMillis() : 0;
    }

    /** True when measuring. */
    public boolean on() {
        return on;
    }

    /** The start of a timed phase: a clock reading, or 0 when off. */
    public long start() {
        return on ? System.nanoTime() : 0L;
    }

    /** Ends a phase begun at {@code start} (one event). */
    public void end(Phase phase, long start) {
        if (on) {
            long dt = System.nanoTime() - start;
            counts[phase.ordinal()].increment();
            nanos[phase.ordinal()].add(dt);
            if (phase == Phase.TRANSFORM_WOVEN && warmUpCount.sum() < WARM_UP_CLASSES) {
                warmUpCount.increment();
                warmUpNanos.add(dt);
            }
        }
    }

    /**
     * Counts one class woven by the transformer in {@code nanos} (always, whatever {@code
     * weave.stats} says).
     *
     * @param internalName the class's internal name ({@code a/b/C}), as the JVM passes it
     */
    public void woven(String internalName, long nanos) {
        wovenClasses.increment();
        wovenNanos.add(nanos);
        synchronized (this) {
            if (nanos > maxNanos) {
                maxNanos = nanos;
                maxClass = internalName;
            }
        }
    }

    /** Counts a class that could not be woven; the first {@link #FAILURES_LISTED} are kept with the reason. */
    public void failed(String className, Throwable reason) {
        failedClasses.increment();
        synchronized (this) {
            if (failures.size() < FAILURES_LISTED) {
                failures.add(className + ": " + reason);
            }
        }
    }

    /** Counts a {@code retransformClasses} call the JVM refused (the search for the classes it refuses). */
    public void refusedCall() {
        refusedCalls.increment();
    }

    /**
     * The always-on figures as {@code key=value} lines for the MBean's counters: {@code
     * weave.classes}, {@code weave.ms} (total), {@code weave.ms.per.class}, {@code weave.max.ms}
     * and {@code weave.max.class}, {@code weave.failed}, {@code weave.refused.calls} (re-transform
     * calls the JVM refused), and one {@code weave.failed.class NAME: REASON} line per listed failure.
     */
    public synchronized List<String> counters() {
        List<String> lines = new ArrayList<>();
        long n = wovenClasses.sum();
        long total = wovenNanos.sum();
        lines.add("weave.classes=" + n);
        lines.add("weave.ms=" + String.format(Locale.ROOT, "%.1f", total / 1e6));
        lines.add("weave.ms.per.class=" + (n == 0 ? "-" : String.format(Locale.ROOT, "%.3f", total / 1e6 / n)));
        lines.add("weave.max.ms=" + String.format(Locale.ROOT, "%.1f", maxNanos / 1e6));
        lines.add("weave.max.class=" + (maxClass == null ? "-" : maxClass.replace('/', '.')));
        lines.add("weave.failed=" + failedClasses.sum());
        lines.add("weave.refused.calls=" + refusedCalls.sum());
        for (String f : failures) {
            lines.add("weave.failed.class " + f);
        }
        return lines;
    }

    /**
     * From now on, the CPU time of every call of the ASM weaver's transformer is added up
     * ({@link #weavingCpuNanos}): the overhead budget subtracts it from the application's CPU time.
     * Off until asked, so that an agent without a budget reads no thread clock per class.
     */
    public void measureCpu(java.lang.management.ThreadMXBean clock) {
        cpuClock = clock;
    }

    /** The current thread's CPU time when measuring weaving's CPU time ({@link #measureCpu}), else -1. */
    public long cpuStart() {
        java.lang.management.ThreadMXBean c = cpuClock;
        return c == null ? -1 : c.getCurrentThreadCpuTime();
    }

    /** Ends a transformer call begun at {@link #cpuStart}. */
    public void cpuEnd(long start) {
        java.lang.management.ThreadMXBean c = cpuClock;
        if (start >= 0 && c != null) {
            weavingCpu.add(Math.max(0, c.getCurrentThreadCpuTime() - start));
        }
    }

    /** CPU time of the transformer calls since {@link #measureCpu} (ns, all threads). */
    public long weavingCpuNanos() {
        return weavingCpu.sum();
    }

    /** Classes woven so far. */
    public long wovenClasses() {
        return wovenClasses.sum();
    }

    /** Adds {@code events} events of {@code phase} that took {@code dtNanos} together. */
    public void add(Phase phase, int events, long dtNanos) {
        if (on) {
            counts[phase.ordinal()].add(events);
            nanos[phase.ordinal()].add(dtNanos);
        }
    }

    /** Events counted for the phase. */
    public long count(Phase phase) {
        return counts[phase.ordinal()].sum();
    }

    /** Nanoseconds summed for the phase. */
    public long nanos(Phase phase) {
        return nanos[phase.ordinal()].sum();
    }

    /** The report: a few lines, without the "sonde-agent: " prefix. */
    public List<String> report() {
        List<String> lines = new ArrayList<>();
        long woven = count(Phase.TRANSFORM_WOVEN);
        long wovenNanos = nanos(Phase.TRANSFORM_WOVEN);
        long warmN = warmUpCount.sum();
        long warmNs = warmUpNanos.sum();
        StringBuilder head = new StringBuilder("weave.stats: ")
                .append(woven).append(" class(es) woven in ").append(ms(wovenNanos)).append(" (")
                .append(perEvent(wovenNanos, woven)).append("/class");
        if (woven > warmN && warmN > 0) {
            head.append("; first ").append(warmN).append(": ").append(perEvent(warmNs, warmN))
                    .append("/class, later: ").append(perEvent(wovenNanos - warmNs, woven - warmN)).append("/class");
        }
        head.append(")");
        lines.add(head.toString());
        for (Phase p : Phase.values()) {
            if (p == Phase.TRANSFORM_WOVEN) {
                continue;
            }
            lines.add(String.format(Locale.ROOT, "weave.stats:   %-27s %8d in %s", p.label, count(p), ms(nanos(p))));
        }
        long compiled = compileMillis();
        if (compiled >= 0) {
            lines.add("weave.stats:   JIT compilation (whole JVM, since the agent started): "
                    + (compiled - compileMillisAtStart) + " ms");
        }
        return lines;
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }

    private static String perEvent(long nanos, long n) {
        return n == 0 ? "-" : String.format(Locale.ROOT, "%.3f ms", nanos / 1e6 / n);
    }

    private static long compileMillis() {
        try {
            CompilationMXBean c = ManagementFactory.getCompilationMXBean();
            return c != null && c.isCompilationTimeMonitoringSupported() ? c.getTotalCompilationTime() : -1;
        } catch (RuntimeException | LinkageError e) {
            return -1;
        }
    }
}
