package io.sonde.analysis.progress;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar redrawn in place with a carriage return, at most a few times per
 * second. Meant for a terminal: use {@link #forConsole} to get a silent listener when the output
 * is not one, so that logs and pipes never see control characters.
 */
public final class TerminalProgressBar implements ProgressListener {
    private static final int WIDTH = 30;
    private static final long REDRAW_NANOS = 200_000_000L;

    private final PrintStream out;
    private final String label;
    private final long startNanos = System.nanoTime();
    private long lastDraw;
    private boolean drawn;

    public TerminalProgressBar(PrintStream out, String label) {
        this.out = out;
        this.label = label;
    }

    /** A bar on {@code out} when the process has a terminal, otherwise {@link ProgressListener#NONE}. */
    public static ProgressListener forConsole(PrintStream out, String label) {
        return System.console() != null ? new TerminalProgressBar(out, label) : NONE;
    }

    @Override
    public void progress(long bytesDone, long bytesTotal) {
        long now = System.nanoTime();
        if (drawn && now - lastDraw < REDRAW_NANOS) return;
        lastDraw = now;
        drawn = true;
        out.print('\r' + line(bytesDone, bytesTotal, now - startNanos));
        out.flush();
    }

    @Override
    public void done() {
        if (drawn) {
            out.print('\r' + " ".repeat(WIDTH + label.length() + 40) + '\r');
            out.flush();
        }
    }

    /** The text of the bar (without the carriage return). */
    String line(long done, long total, long elapsedNanos) {
        double seconds = elapsedNanos / 1e9;
        double mib = done / 1048576.0;
        String rate = seconds > 0 ? String.format(Locale.ROOT, "%.1f MiB/s", mib / seconds) : "";
        if (total <= 0) return String.format(Locale.ROOT, "%s %.1f MiB %s", label, mib, rate);
        double f = Math.min(1.0, (double) done / total);
        int filled = (int) Math.round(f * WIDTH);
        return String.format(Locale.ROOT, "%s [%s%s] %3.0f%% %.1f/%.1f MiB %s", label, "#".repeat(filled), ".".repeat(WIDTH - filled),
                f * 100, mib, total / 1048576.0, rate);
    }
}
