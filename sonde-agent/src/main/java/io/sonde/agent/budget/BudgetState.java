package io.sonde.agent.budget;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The budget's state file ({@code budget.state=FILE}): the probes the overhead budget switched off,
 * with the figures and the reason of each switch, kept from one start of the program to the next.
 * A start that finds the file leaves those probes out of the code from the beginning, so that it
 * does not pay again for what the budget learned: the probes' cost until the steps, and the JIT
 * compiling the classes again after each step's re-transformation.
 *
 * <p>It also keeps what one execution was measured to cost the application's threads ({@link
 * ExecutionCost}), as a multiple of the calibrated enter+exit pair of the run that measured it
 * (CPU times scale with the machine's speed and load, the ratio much less: a loaded machine once
 * calibrated the pair at 195 ns instead of 50), so that a later start judges the probes left on at
 * that multiple of its own pair from its first interval rather than at the pair alone, which on
 * real libraries is several times too low.
 *
 * <p>Text, UTF-8, one switch per line, tab-separated:
 * <pre>
 * sonde-budget-state 2
 * budget=5
 * written=2026-11-25T17:30:00Z
 * execution.pairs=4.73 weight=412345 experiments=2      (or execution.pairs=none)
 * PROBE  EXECUTIONS  SHARE  MEAN_NS  DEPTH  OVERHEAD  REASON
 * </pre>
 * Version 1 (written before the execution cost was kept) has no {@code execution.pairs} line and is
 * still read. Lines starting with {@code #} are comments. Written whole to a temporary file beside it, then
 * moved over it, so that a reader never sees half a file.
 */
final class BudgetState {
    static final String MAGIC = "sonde-budget-state 2";
    /** The first version, without the execution cost; still read. */
    static final String MAGIC_1 = "sonde-budget-state 1";
    private static final int FIELDS = 7;

    /** One switch as kept: its figures when it was made, and why. */
    record Entry(BudgetController.Switch figures, String reason) {}

    /**
     * What the steps' experiments measured one execution to cost ({@link ExecutionCost}): the mean
     * in multiples of the calibrated pair, weighted by the executions the steps removed ({@code
     * weight}), over {@code experiments}.
     */
    record Measured(double pairs, double weight, int experiments) {}

    /**
     * What a file holds: the budget it was learned with, when it was written, the measured cost
     * per execution (null when no experiment counted, or in a version 1 file), and the switches.
     */
    record Learned(double percent, Instant written, Measured measured, List<Entry> entries) {}

    /** A file that cannot be used; the message names the file, the line and the problem. */
    static final class Unreadable extends Exception {
        Unreadable(String message) {
            super(message);
        }
    }

    private BudgetState() {}

    /** Reads {@code file}; null when it does not exist (a first start). */
    static Learned read(Path file) throws Unreadable {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new Unreadable(file + ": cannot be read: " + e);
        }
        double percent = Double.NaN;
        Instant written = null;
        Measured measured = null;
        List<Entry> entries = new ArrayList<>();
        int headers = 3; // the header lines of the file's version
        int header = 0; // the header lines seen so far
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String at = file + ":" + (i + 1) + ": ";
            if (line.isBlank() || line.startsWith("#")) continue;
            if (header == 0) {
                if (line.strip().equals(MAGIC)) {
                    headers = 4;
                } else if (!line.strip().equals(MAGIC_1)) {
                    throw new Unreadable(at + "not a budget state file of this version (expected '" + MAGIC + "' or '" + MAGIC_1
                            + "', found '" + shorten(line) + "')");
                }
                header++;
            } else if (header == 1) {
                percent = number(at, value(at, line, "budget"), "budget");
                if (!(percent > 0 && percent <= 100)) throw new Unreadable(at + "budget must be above 0 and at most 100");
                header++;
            } else if (header == 2) {
                try {
                    written = Instant.parse(value(at, line, "written"));
                } catch (DateTimeParseException e) {
                    throw new Unreadable(at + "written is not an instant such as 2026-11-25T17:30:00Z");
                }
                header++;
            } else if (header < headers) {
                measured = measured(at, value(at, line, "execution.pairs"));
                header++;
            } else {
                entries.add(entry(at, line));
            }
        }
        if (header < headers) {
            throw new Unreadable(file + ": ends before its header (" + (headers == 4 ? MAGIC + ", budget=, written=, execution.pairs="
                    : MAGIC_1 + ", budget=, written=") + ")");
        }
        return new Learned(percent, written, measured, List.copyOf(entries));
    }

    /** {@code none}, or {@code PAIRS weight=W experiments=N}. */
    private static Measured measured(String at, String text) throws Unreadable {
        if (text.equals("none")) return null;
        String[] f = text.split(" +");
        if (f.length != 3 || !f[1].startsWith("weight=") || !f[2].startsWith("experiments=")) {
            throw new Unreadable(at + "expected execution.pairs=PAIRS weight=EXECUTIONS experiments=N or execution.pairs=none, found '"
                    + shorten(text) + "'");
        }
        double pairs = number(at, f[0], "execution.pairs");
        double weight = number(at, f[1].substring("weight=".length()), "weight");
        int experiments;
        try {
            experiments = Integer.parseInt(f[2].substring("experiments=".length()));
        } catch (NumberFormatException e) {
            throw new Unreadable(at + "experiments '" + shorten(f[2]) + "' is not a whole number");
        }
        if (!(pairs > 0) || !(weight > 0) || experiments <= 0) {
            throw new Unreadable(at + "execution.pairs, weight and experiments must be above 0");
        }
        return new Measured(pairs, weight, experiments);
    }

    private static Entry entry(String at, String line) throws Unreadable {
        String[] f = line.split("\t", -1);
        if (f.length != FIELDS) {
            throw new Unreadable(at + "expected " + FIELDS + " tab-separated fields (probe, executions, share, mean_ns, depth,"
                    + " overhead, reason), found " + f.length);
        }
        String probe = f[0].strip();
        if (probe.isEmpty() || probe.indexOf('.') <= 0 || probe.indexOf(' ') >= 0) {
            throw new Unreadable(at + "'" + shorten(probe) + "' is not a probe name (class.method)");
        }
        long executions;
        try {
            executions = Long.parseLong(f[1].strip());
        } catch (NumberFormatException e) {
            throw new Unreadable(at + "executions '" + shorten(f[1]) + "' is not a whole number");
        }
        return new Entry(new BudgetController.Switch(probe, executions, number(at, f[2], "share"), number(at, f[3], "mean_ns"),
                number(at, f[4], "depth"), number(at, f[5], "overhead")), f[6]);
    }

    /** Writes the measured cost ({@code measured} null: none) and the switches, replacing the file whole. */
    static void write(Path file, double percent, Instant written, Measured measured, List<Entry> entries) throws IOException {
        StringBuilder out = new StringBuilder(64 + 160 * entries.size());
        out.append(MAGIC).append('\n');
        out.append("# the probes the overhead budget switched off; a start with budget.state=").append(file.getFileName())
                .append(" leaves them out of the code (docs/agent.md)\n");
        out.append("budget=").append(BudgetController.trim(percent)).append('\n');
        out.append("written=").append(written).append('\n');
        out.append("# what one execution of a probe was measured to cost the application's threads, in calibrated enter+exit pairs\n");
        out.append("execution.pairs=").append(measured == null ? "none" : String.format(Locale.ROOT, "%.3f weight=%d experiments=%d",
                measured.pairs(), Math.round(measured.weight()), measured.experiments())).append('\n');
        out.append("# probe\texecutions\tshare\tmean_ns\tdepth\toverhead\treason\n");
        for (Entry e : entries) {
            BudgetController.Switch s = e.figures();
            out.append(s.probe()).append('\t').append(s.executions()).append('\t')
                    .append(String.format(Locale.ROOT, "%.3f\t%.1f\t%.2f\t%.3f", s.share(), s.meanNanos(), s.depth(), s.overhead()))
                    .append('\t').append(oneLine(e.reason())).append('\n');
        }
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        try {
            Files.writeString(tmp, out, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static String value(String at, String line, String key) throws Unreadable {
        int eq = line.indexOf('=');
        if (eq < 0 || !line.substring(0, eq).strip().equals(key)) {
            throw new Unreadable(at + "expected " + key + "=..., found '" + shorten(line) + "'");
        }
        return line.substring(eq + 1).strip();
    }

    private static double number(String at, String text, String what) throws Unreadable {
        try {
            double v = Double.parseDouble(text.strip());
            if (Double.isNaN(v) || Double.isInfinite(v)) throw new NumberFormatException();
            return v;
        } catch (NumberFormatException e) {
            throw new Unreadable(at + what + " '" + shorten(text) + "' is not a number");
        }
    }

    /** Tabs and line breaks would split the line: a reason is kept on one line, in one field. */
    private static String oneLine(String text) {
        return text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    private static String shorten(String text) {
        return text.length() <= 60 ? text : text.substring(0, 57) + "...";
    }
}
