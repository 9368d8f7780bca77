package io.sonde.analysis.tree;

/**
 * A completed call tree of one trace on one thread: a <em>piece</em> of a request's joined tree
 * ({@link JoinedTree}) when the work crossed threads.
 *
 * @param thread where it ran
 * @param traceId the id from its trace start (0 if none)
 * @param parentTraceId the parent trace id (0 none)
 * @param parentOrderIndex order index of the parent execution in the parent trace (-1 none)
 * @param handoffWaitNanos for work handed over with its time (a HANDOFF_START): the wait from the
 *     hand-off to the first ENTER of this piece, ns (at least 0); else {@link Execution#UNKNOWN}
 * @param root the root execution
 * @param nodeCount executions in the trace
 * @param truncated true when the trace had more executions than were kept; the deepest/latest
 *     ones are missing from the tree (its root's times are still exact)
 * @param broken true when the input had a hole (damaged or missing records) while the trace was
 *     open: the tree holds what was read before the hole, and the executions still open there have
 *     unknown times ({@link Execution#UNKNOWN})
 */
public record TraceTree(
        ThreadInfo thread, long traceId, long parentTraceId, int parentOrderIndex, long handoffWaitNanos, TreeNode root, int nodeCount,
        boolean truncated, boolean broken) {

    /** True when the piece was handed off with its time ({@link #handoffWaitNanos()} is known). */
    public boolean handedOff() {
        return handoffWaitNanos != Execution.UNKNOWN;
    }

    /** Wall-clock time of the hand-off (the root's start less the wait), or of the root's start when unknown. */
    public long handoffWallNanos() {
        return root.startWallNanos() - (handedOff() ? handoffWaitNanos : 0);
    }

    /** The kept executions in call order (pre-order: each caller before its callees). */
    public java.util.List<TreeNode> nodes() {
        // Iterative: deep recursion in a kept tree must not overflow the stack.
        java.util.List<TreeNode> out = new java.util.ArrayList<>(nodeCount);
        java.util.ArrayDeque<TreeNode> todo = new java.util.ArrayDeque<>();
        todo.push(root);
        while (!todo.isEmpty()) {
            TreeNode n = todo.pop();
            out.add(n);
            for (int i = n.children.size() - 1; i >= 0; i--) todo.push(n.children.get(i));
        }
        return out;
    }
}
