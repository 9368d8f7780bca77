package io.sonde.cli.live;

import io.sonde.format.observe.ObservedEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The terminal view of {@code sonde watch}: one row per source path with its latest value (or last
 * object event), its event rate over the last seconds and the time since its last event, redrawn in
 * place with ANSI escapes. Fed by the client's reader thread, drawn by the command's thread.
 */
final class WatchView {
    /** Rates count the events of the last {@value #WINDOW_SLOTS} slots of {@value #SLOT_MILLIS} ms. */
    private static final int WINDOW_SLOTS = 10;
    private static final long SLOT_MILLIS = 500;
    private static final String CLEAR_LINE = "\033[K";

    /** Natural path order: segment by segment, numbers by value. */
    static final Comparator<String> PATH_ORDER = (a, b) -> {
        String[] x = a.split("/", -1);
        String[] y = b.split("/", -1);
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            int c = ObserveOptions.compareNames(x[i], y[i]);
            if (c != 0) return c;
        }
        return Integer.compare(x.length, y.length);
    };

    private final Map<String, Row> rows = new TreeMap<>(PATH_ORDER);
    private final long startNanos;
    private boolean drawn;

    WatchView(long nowNanos) {
        this.startNanos = nowNanos;
    }

    /** One source path: latest value, when, and the events per slot of the rate window. */
    private static final class Row {
        String value = "";
        long lastNanos;
        long firstNanos;
        long events;
        final long[] slotCounts = new long[WINDOW_SLOTS];
        final long[] slotIndex = new long[WINDOW_SLOTS];

        void count(long nowNanos) {
            long index = TimeUnit.NANOSECONDS.toMillis(nowNanos) / SLOT_MILLIS;
            int s = (int) Math.floorMod(index, (long) WINDOW_SLOTS);
            if (slotIndex[s] != index) {
                slotIndex[s] = index;
                slotCounts[s] = 0;
            }
            slotCounts[s]++;
        }

        /** Events per second over the window (or since the first event, when that is shorter). */
        double rate(long nowNanos) {
            long index = TimeUnit.NANOSECONDS.toMillis(nowNanos) / SLOT_MILLIS;
            long n = 0;
            for (int s = 0; s < WINDOW_SLOTS; s++) if (slotIndex[s] > index - WINDOW_SLOTS) n += slotCounts[s];
            double seconds = Math.min(WINDOW_SLOTS * SLOT_MILLIS / 1000.0, Math.max(0.5, (nowNanos - firstNanos) / 1e9));
            return n / seconds;
        }
    }

    /** Takes one event in (at local time {@code nowNanos}, {@link System#nanoTime()}). */
    synchronized void add(ObservedEvent e, long nowNanos) {
        if (e.kind() == ObservedEvent.Kind.OBJECT_DELETED) {
            // the object and its attributes leave the view
            rows.keySet().removeIf(p -> p.equals(e.path()) || p.startsWith(e.path() + "/"));
            return;
        }
        Row r = rows.computeIfAbsent(e.path(), p -> new Row());
        if (r.firstNanos == 0) r.firstNanos = nowNanos;
        r.value = switch (e.kind()) {
            case VALUE_CHANGED -> text(e.value());
            case CHILD_ADDED -> "+ " + e.childPath().substring(e.childPath().lastIndexOf('/') + 1);
            case NOTIFICATION -> "! " + WatchCommand.notificationText(e);
            default -> "- " + e.childPath().substring(e.childPath().lastIndexOf('/') + 1);
        };
        r.lastNanos = nowNanos;
        r.events++;
        r.count(nowNanos);
    }

    /**
     * The screen: {@code header}, a column head and at most {@code maxRows} rows, each line cut to
     * {@code width}, with the escapes that redraw it in place (the first draw clears the screen).
     */
    synchronized String render(String header, long nowNanos, int maxRows, int width) {
        List<String[]> cells = new ArrayList<>();
        cells.add(new String[] {"PATH", "VALUE", "RATE", "LAST EVENT"});
        int shown = 0;
        for (Map.Entry<String, Row> e : rows.entrySet()) {
            if (shown++ == maxRows) break;
            Row r = e.getValue();
            cells.add(new String[] {e.getKey(), cut(r.value, 32), r.events < 2 ? "-" : String.format(java.util.Locale.ROOT, "%.1f/s", r.rate(nowNanos)),
                String.format(java.util.Locale.ROOT, "%.1f s ago", (nowNanos - r.lastNanos) / 1e9)});
        }
        StringBuilder b = new StringBuilder(drawn ? "\033[H" : "\033[H\033[2J");
        drawn = true;
        b.append(cut(header, width)).append(CLEAR_LINE).append('\n');
        for (String line : ObserveOptions.columns(cells)) b.append(cut(line, width)).append(CLEAR_LINE).append('\n');
        if (rows.size() > maxRows) {
            b.append("... ").append(rows.size() - maxRows).append(" more (narrow the pattern)").append(CLEAR_LINE).append('\n');
        } else if (rows.isEmpty()) {
            b.append(String.format(java.util.Locale.ROOT, "(no events yet, %.0f s)", (nowNanos - startNanos) / 1e9))
                    .append(CLEAR_LINE).append('\n');
        }
        return b.append("\033[J").toString();
    }

    private static String cut(String s, int width) {
        return s.length() <= width ? s : s.substring(0, Math.max(0, width - 1)) + "~";
    }

    /**
     * A value as users read it: a double to six significant digits ({@code 145.89956738} as {@code 145.9}),
     * other numbers, booleans and strings as they are, null as "null".
     */
    static String text(Object v) {
        if (v instanceof Double d && !d.isNaN() && !d.isInfinite() && d != 0.0) {
            java.math.BigDecimal b = new java.math.BigDecimal(d).round(new java.math.MathContext(6)).stripTrailingZeros();
            return Math.abs(d) >= 1e-4 && Math.abs(d) < 1e12 ? b.toPlainString() : b.toString();
        }
        return String.valueOf(v);
    }
}
