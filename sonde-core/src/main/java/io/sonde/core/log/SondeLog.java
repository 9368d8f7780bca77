package io.sonde.core.log;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The core's only diagnostic output: one line per message on {@code System.err}, prefixed
 * {@code "sonde: "}, rate-limited per message key. Each key may print {@link #LINES_PER_WINDOW}
 * lines per minute; later messages of that key in the same minute are counted, not printed, and
 * the first message of the key after the minute is preceded by one line saying how many were
 * suppressed. A writer failing in a loop thus cannot flood the application's error stream.
 *
 * <p>Slow path only (synchronized, allocating): never call it from probe or ring code.
 */
public final class SondeLog {
    /** Lines per key and window that {@link #warn} prints. */
    public static final int LINES_PER_WINDOW = 5;
    /** The rate-limit window. */
    public static final long WINDOW_NANOS = TimeUnit.MINUTES.toNanos(1);

    private static final SondeLog STDERR =
            new SondeLog(System::nanoTime, line -> System.err.println(line), LINES_PER_WINDOW, WINDOW_NANOS);

    private final LongSupplier clock;
    private final Consumer<String> out;
    private final int linesPerWindow;
    private final long windowNanos;
    private final Map<String, Window> windows = new HashMap<>();

    /** Per key: when its window began, lines printed in it, messages suppressed in it. */
    private static final class Window {
        long start;
        int printed;
        long suppressed;
    }

    /**
     * A log with an explicit clock and sink (tests inject both).
     *
     * @param clock nanosecond clock, e.g. {@code System::nanoTime}
     * @param out receives each line
     * @param linesPerWindow lines printed per key and window, at least 1
     * @param windowNanos window length, positive
     */
    public SondeLog(LongSupplier clock, Consumer<String> out, int linesPerWindow, long windowNanos) {
        if (linesPerWindow < 1 || windowNanos <= 0) {
            throw new IllegalArgumentException("linesPerWindow must be >= 1 and windowNanos > 0: " + linesPerWindow
                    + ", " + windowNanos);
        }
        this.clock = clock;
        this.out = out;
        this.linesPerWindow = linesPerWindow;
        this.windowNanos = windowNanos;
    }

    /** Prints {@code "sonde: " + message} to System.err unless {@code key} exceeded its rate. */
    public static void warn(String key, String message) {
        STDERR.log(key, message);
    }

    /** Prints {@code "sonde: " + message} unless {@code key} exceeded its rate in the current window. */
    public synchronized void log(String key, String message) {
        long now = clock.getAsLong();
        Window w = windows.get(key);
        if (w == null) {
            w = new Window();
            w.start = now;
            windows.put(key, w);
        } else if (now - w.start >= windowNanos) {
            if (w.suppressed > 0) {
                out.accept("sonde: suppressed " + w.suppressed + " more message(s) of kind '" + key + "' in the last "
                        + TimeUnit.NANOSECONDS.toSeconds(windowNanos) + " s");
            }
            w.start = now;
            w.printed = 0;
            w.suppressed = 0;
        }
        if (w.printed < linesPerWindow) {
            w.printed++;
            out.accept("sonde: " + message);
        } else {
            w.suppressed++;
        }
    }
}
