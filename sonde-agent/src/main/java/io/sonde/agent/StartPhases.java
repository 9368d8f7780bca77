package io.sonde.agent;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the agent's start (or attach) spends its time: phases on the monotonic clock, from the JVM
 * calling {@code premain}/{@code agentmain} to the last loaded class re-transformed. Each {@link
 * #end(String)} closes the phase that began where the previous one ended. Always on: a
 * dozen readings of the clock and of the thread's CPU time per start (CPU: steadier than wall time
 * on a loaded machine). Shown as {@code start.*} counters ({@code sonde probes status},
 * the MBean) and, after an attach, in the line {@code sonde attach} prints.
 *
 * <p>Marked by the thread that runs {@code agentmain}, then by the attach's weaving thread it
 * starts; read by any thread: every access holds the lock of the record.
 */
final class StartPhases {

    /** The phases in the order they ended, and the latest end. */
    private static final class Record {
        final long origin;
        long latest;
        final Map<String, Long> nanos = new LinkedHashMap<>();
        final Map<String, Long> cpuNanos = new LinkedHashMap<>();

        Record(long origin) {
            this.origin = origin;
            this.latest = origin;
        }
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Record record;
    private long last; // guarded by record
    // CPU time of the thread that marked last, at that mark; the marks move from agentmain's
    // thread to a thread started for the rest (the attach's weaver), whose CPU starts near 0
    private Thread lastThread;
    private long lastCpu;

    /** @param originNanos {@link System#nanoTime()} when the JVM called the agent */
    StartPhases(long originNanos) {
        this(new Record(originNanos), originNanos);
    }

    private StartPhases(Record record, long last) {
        this.record = record;
        this.last = last;
        this.lastThread = Thread.currentThread();
        this.lastCpu = threadCpu();
    }

    /** Ends the phase {@code name} now. */
    void end(String name) {
        end(name, System.nanoTime());
    }

    /** Ends the phase {@code name} at {@code atNanos} (not before its previous end). */
    void end(String name, long atNanos) {
        long cpu = threadCpu();
        Thread self = Thread.currentThread();
        synchronized (record) {
            record.nanos.merge(name, atNanos - last, Long::sum);
            record.cpuNanos.merge(name, Math.max(0, self == lastThread ? cpu - lastCpu : cpu), Long::sum);
            last = atNanos;
            lastThread = self;
            lastCpu = cpu;
            record.latest = Math.max(record.latest, atNanos);
        }
    }

    /** {@code start.PHASE.ms=M} per phase in the order they ended, then {@code start.total.ms=M}. */
    List<String> counters() {
        synchronized (record) {
            List<String> lines = new ArrayList<>();
            record.nanos.forEach((name, ns) -> {
                lines.add("start." + name + ".ms=" + ms(ns));
                lines.add("start." + name + ".cpu.ms=" + ms(record.cpuNanos.getOrDefault(name, 0L)));
            });
            lines.add("start.total.ms=" + ms(record.latest - record.origin));
            return lines;
        }
    }

    /** One line: {@code PHASE M ms, ...}. */
    String summary() {
        synchronized (record) {
            List<String> parts = new ArrayList<>();
            record.nanos.forEach((name, ns) -> parts.add(
                    name + " " + ms(ns) + " ms (CPU " + ms(record.cpuNanos.getOrDefault(name, 0L)) + ")"));
            return String.join(", ", parts);
        }
    }

    /** CPU time of the current thread, 0 where the JVM does not measure it. */
    private static long threadCpu() {
        long t = THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
        return Math.max(0, t);
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e6);
    }
}
