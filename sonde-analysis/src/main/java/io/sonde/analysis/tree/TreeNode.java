package io.sonde.analysis.tree;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** One execution in a kept {@link TraceTree}, with its callees in call order. */
public final class TreeNode {
    private final Operation operation;
    private final int depth;
    private final int orderIndex;
    private final long startWallNanos;
    long wallInclusive;
    long wallExclusive;
    long cpuInclusive = Execution.UNKNOWN;
    long cpuExclusive = Execution.UNKNOWN;
    String exception;
    final List<TreeNode> children = new ArrayList<>(2);

    TreeNode(Operation operation, int depth, int orderIndex, long startWallNanos) {
        this.operation = operation;
        this.depth = depth;
        this.orderIndex = orderIndex;
        this.startWallNanos = startWallNanos;
    }

    /** An execution that never completed (its tree was broken by a hole in the input): times unknown. */
    void markUnknown() {
        wallInclusive = Execution.UNKNOWN;
        wallExclusive = Execution.UNKNOWN;
        cpuInclusive = Execution.UNKNOWN;
        cpuExclusive = Execution.UNKNOWN;
    }

    public Operation operation() {
        return operation;
    }

    public int depth() {
        return depth;
    }

    public int orderIndex() {
        return orderIndex;
    }

    public long startWallNanos() {
        return startWallNanos;
    }

    /** Inclusive wall time, or {@link Execution#UNKNOWN} for an execution of a broken tree that never completed. */
    public long wallInclusive() {
        return wallInclusive;
    }

    public long wallExclusive() {
        return wallExclusive;
    }

    /** Inclusive CPU time, or {@link Execution#UNKNOWN}. */
    public long cpuInclusive() {
        return cpuInclusive;
    }

    public long cpuExclusive() {
        return cpuExclusive;
    }

    /** Exception class name, or null for a normal return. */
    public String exception() {
        return exception;
    }

    public List<TreeNode> children() {
        return Collections.unmodifiableList(children);
    }
}
