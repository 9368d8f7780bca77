package io.sonde.analysis.tree;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Prints joined trees as text in the manner of the event-trace browser of the thesis (Figure 3.2):
 * per request a header (its trace, pieces and threads), then one line per execution with the
 * operation indented by call depth and columns for the thread it ran on, inclusive wall time,
 * inclusive CPU time, exclusive wall time (µs), the hand-off wait (the queueing column: for the
 * root of a piece handed off by another execution, the time from the hand-off to its start) and
 * depth. A handed-off piece starts with {@code =>} under the execution that handed it off;
 * events recorded during an execution are lines starting with {@code *} at their place.
 */
public final class TreePrinter {
    private static final int THREAD_WIDTH = 20;
    private final PrintStream out;

    public TreePrinter(PrintStream out) {
        this.out = out;
    }

    /** Prints the joined trees in order. */
    public void print(List<JoinedTree> trees) {
        int width = 40;
        for (JoinedTree j : trees) for (JoinedTree.Row row : j.rows()) width = Math.max(width, label(row).length());
        width = Math.min(width, 120);
        for (JoinedTree j : trees) {
            printHeader(j);
            out.printf("%-" + width + "s %-" + THREAD_WIDTH + "s %12s %12s %12s %12s %5s%n", "Operation", "Thread", "Wall us", "CPU us", "Excl us",
                    "Wait us", "Depth");
            for (JoinedTree.Row row : j.rows()) printRow(row, width);
            out.println();
        }
    }

    private void printHeader(JoinedTree j) {
        TraceTree r = j.root();
        ThreadInfo th = r.thread();
        List<ThreadInfo> threads = j.threads();
        StringBuilder names = new StringBuilder();
        for (ThreadInfo t : threads) names.append(names.length() == 0 ? "" : ", ").append(t.name());
        out.printf(Locale.ROOT, "%s 0x%s  (agent %d %s, host %s, pid %d): %d execution(s) in %d piece(s) on %d thread(s): %s%n",
                j.unlinked() ? "Unlinked piece" : "Trace", Long.toHexString(r.traceId()), th.agent().index(), th.agent().id(), th.agent().host(),
                th.agent().pid(), j.nodeCount(), j.pieces().size(), threads.size(), names);
        if (j.unlinked()) {
            out.printf("   its parent 0x%s #%d is not in the log (not recorded, on a thread excluded by --thread, or lost)%n",
                    Long.toHexString(r.parentTraceId()), r.parentOrderIndex());
        }
        for (TraceTree p : j.pieces()) {
            if (p.truncated()) out.printf("   [truncated: trace 0x%s: only the first %d executions kept]%n", Long.toHexString(p.traceId()), p.nodeCount());
            if (p.broken()) out.printf("   [broken: trace 0x%s: the input has a hole here; open executions have no times]%n", Long.toHexString(p.traceId()));
        }
        if (j.truncated()) out.println("   [truncated: pieces of this request were not kept]");
    }

    private void printRow(JoinedTree.Row row, int width) {
        String name = label(row);
        if (name.length() > width) name = name.substring(0, width - 1) + "~";
        String thread = row.piece().thread().name();
        if (thread.length() > THREAD_WIDTH) thread = "~" + thread.substring(thread.length() - THREAD_WIDTH + 1);
        if (row.event() != null) {
            out.printf("%-" + width + "s %s%n", name, thread);
            return;
        }
        TreeNode n = row.node();
        String wait = row.handoff() != null && row.handoff().handedOff() ? micros(row.handoff().handoffWaitNanos()) : "";
        out.printf("%-" + width + "s %-" + THREAD_WIDTH + "s %12s %12s %12s %12s %5d%n", name, thread, micros(n.wallInclusive()),
                micros(n.cpuInclusive()), micros(n.wallExclusive()), wait, row.depth());
    }

    private static String label(JoinedTree.Row row) {
        String indent = "  ".repeat(row.depth());
        if (row.event() != null) {
            TreeEvent e = row.event();
            return indent + "* " + e.type() + (e.fields().isEmpty() ? "" : " (" + e.fields() + ")");
        }
        TreeNode n = row.node();
        return indent + (row.handoff() != null ? "=> " : "") + n.operation().name() + (n.exception() != null ? " !" + n.exception() : "");
    }

    /** Nanoseconds as microseconds with one decimal, or "-" when unknown. */
    public static String micros(long nanos) {
        if (nanos == Execution.UNKNOWN) return "-";
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1000.0);
    }
}
