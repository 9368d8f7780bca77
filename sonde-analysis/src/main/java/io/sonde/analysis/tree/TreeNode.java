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
    /** Events recorded during this execution (not inside a callee), in time order; null: none. */
    List<TreeEvent> events;
    /** Pieces handed off by this execution (set when trees are joined), by hand-off time; null: none. */
    List<TraceTree> handoffs;

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

    /** Events recorded through the API during this execution, outside its callees, in time order. */
    public List<TreeEvent> events() {
        return events == null ? List.of() : Collections.unmodifiableList(events);
    }

    /**
     * The pieces of a joined tree that this execution handed off (tasks, async stages, threads it
     * started), by hand-off time; empty outside a {@link JoinedTree} or when it handed nothing off.
     */
    public List<TraceTree> handoffs() {
        return handoffs == null ? List.of() : Collections.unmodifiableList(handoffs);
    }

    void addEvent(TreeEvent e) {
        if (events == null) events = new ArrayList<>(2);
        events.add(e);
    }
}
