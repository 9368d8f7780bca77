package io.sonde.agent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the agent's start (or attach) spends its time: phases on the monotonic clock, from the JVM
 * calling {@code premain}/{@code agentmain} to the last loaded class re-transformed. Each {@link
 * #end(String)} closes the phase that began where the previous one of the same lane ended; {@link
 * #beside()} opens a second lane for work that runs on another thread at the same time (an
 * attach sets up Byte Buddy, the executors and the MBean while it re-transforms). Always on: a
 * dozen clock readings per start. Shown as {@code start.*} counters ({@code sonde probes status},
 * the MBean) and, after an attach, in the line {@code sonde attach} prints.
 *
 * <p>Marked by the thread that runs {@code agentmain}, then by the threads it starts; read by any
 * thread: every access holds the lock of the shared record.
 */
final class StartPhases {

    /** What the lanes share: the phases in the order they ended, and the latest end. */
    private static final class Record {
        final long origin;
        long latest;
        final Map<String, Long> nanos = new LinkedHashMap<>();

        Record(long origin) {
            this.origin = origin;
            this.latest = origin;
        }
    }

    private final Record record;
    private long last; // guarded by record

    /** @param originNanos {@link System#nanoTime()} when the JVM called the agent */
    StartPhases(long originNanos) {
        this(new Record(originNanos), originNanos);
    }

    private StartPhases(Record record, long last) {
        this.record = record;
        this.last = last;
    }

    /** A lane that starts now, beside this one, adding its phases to the same record. */
    StartPhases beside() {
        synchronized (record) {
            return new StartPhases(record, last);
        }
    }

    /** Ends the phase {@code name} of this lane now. */
    void end(String name) {
        end(name, System.nanoTime());
    }

    /** Ends the phase {@code name} of this lane at {@code atNanos} (not before its previous end). */
    void end(String name, long atNanos) {
        synchronized (record) {
            record.nanos.merge(name, atNanos - last, Long::sum);
            last = atNanos;
            record.latest = Math.max(record.latest, atNanos);
        }
    }

    /** {@code start.PHASE.ms=M} per phase in the order they ended, then {@code start.total.ms=M}. */
    List<String> counters() {
        synchronized (record) {
            List<String> lines = new ArrayList<>();
            record.nanos.forEach((name, ns) -> lines.add("start." + name + ".ms=" + ms(ns)));
            lines.add("start.total.ms=" + ms(record.latest - record.origin));
            return lines;
        }
    }

    /** One line: {@code PHASE M ms, ...}. */
    String summary() {
        synchronized (record) {
            List<String> parts = new ArrayList<>();
            record.nanos.forEach((name, ns) -> parts.add(name + " " + ms(ns) + " ms"));
            return String.join(", ", parts);
        }
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e6);
    }
}
