package io.sonde.analysis.tree;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prints trace trees as text in the manner of the event-trace browser of the thesis (Figure 3.2):
 * per thread a header, then one line per execution with the operation indented by call depth and
 * columns for inclusive wall time, inclusive CPU time (µs), exclusive wall time and depth.
 */
public final class TreePrinter {
    private final PrintStream out;

    public TreePrinter(PrintStream out) {
        this.out = out;
    }

    /** Prints the trees grouped by thread, threads in order of their first tree. */
    public void print(List<TraceTree> trees) {
        Map<ThreadInfo, List<TraceTree>> byThread = new LinkedHashMap<>();
        for (TraceTree t : trees) byThread.computeIfAbsent(t.thread(), k -> new java.util.ArrayList<>()).add(t);
        int width = 40;
        for (TraceTree t : trees) for (TreeNode n : t.nodes()) width = Math.max(width, nameWidth(n));
        width = Math.min(width, 120);
        for (Map.Entry<ThreadInfo, List<TraceTree>> e : byThread.entrySet()) {
            ThreadInfo th = e.getKey();
            out.printf("Thread %s  (agent %d %s, host %s, pid %d)%n", th.name(), th.agent().index(), th.agent().id(), th.agent().host(), th.agent().pid());
            out.printf("%-" + width + "s %12s %12s %12s %5s%n", "Operation", "Wall us", "CPU us", "Excl us", "Depth");
            for (TraceTree t : e.getValue()) {
                out.printf("-- trace 0x%s%s%s%s%n", Long.toHexString(t.traceId()),
                        t.parentTraceId() != 0 ? " (parent 0x" + Long.toHexString(t.parentTraceId()) + " #" + t.parentOrderIndex() + ")" : "",
                        t.truncated() ? " [truncated: only the first " + t.nodeCount() + " executions kept]" : "",
                        t.broken() ? " [broken: the input has a hole here; open executions have no times]" : "");
                for (TreeNode n : t.nodes()) printNode(n, width);
            }
            out.println();
        }
    }

    private void printNode(TreeNode n, int width) {
        String name = "  ".repeat(n.depth()) + n.operation().name() + (n.exception() != null ? " !" + n.exception() : "");
        if (name.length() > width) name = name.substring(0, width - 1) + "~";
        out.printf("%-" + width + "s %12s %12s %12s %5d%n", name, micros(n.wallInclusive()), micros(n.cpuInclusive()), micros(n.wallExclusive()), n.depth());
    }

    private static int nameWidth(TreeNode n) {
        return 2 * n.depth() + n.operation().name().length() + (n.exception() != null ? n.exception().length() + 2 : 0);
    }

    /** Nanoseconds as microseconds with one decimal, or "-" when unknown. */
    public static String micros(long nanos) {
        if (nanos == Execution.UNKNOWN) return "-";
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1000.0);
    }
}
