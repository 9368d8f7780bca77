package io.sonde.analysis.tree;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One request's tree across threads: its root piece and every piece linked to it through
 * hand-offs (a task handed to a pool, an async stage, a thread started, each again with its own
 * hand-offs), joined by (parent trace id, parent order index): each child piece hangs under the
 * execution that handed it off ({@link TreeNode#handoffs()}), even when that execution ended
 * before the piece started or ended. A joined tree whose root piece has a parent that is not in
 * the log is {@link #unlinked()}: a fragment, shown as such, not as a request of its own.
 */
public final class JoinedTree {
    private final TraceTree root;
    private final List<TraceTree> pieces;
    private final boolean unlinked;
    private final boolean truncated;

    JoinedTree(TraceTree root, List<TraceTree> pieces, boolean unlinked, boolean truncated) {
        this.root = root;
        this.pieces = List.copyOf(pieces);
        this.unlinked = unlinked;
        this.truncated = truncated;
    }

    /** The piece the request started with (for an unlinked fragment: its first piece). */
    public TraceTree root() {
        return root;
    }

    /** Every piece, in tree order: the root piece, then each piece right after the piece that handed it off. */
    public List<TraceTree> pieces() {
        return pieces;
    }

    /** True when the root piece names a parent trace that is not in the log. */
    public boolean unlinked() {
        return unlinked;
    }

    /** True when pieces of the request were not kept (the joined tree's node budget ran out). */
    public boolean truncated() {
        return truncated;
    }

    /** The threads the request ran on, in order of first appearance. */
    public List<ThreadInfo> threads() {
        Set<ThreadInfo> s = new LinkedHashSet<>();
        for (TraceTree p : pieces) s.add(p.thread());
        return new ArrayList<>(s);
    }

    /** Executions in all pieces. */
    public int nodeCount() {
        int n = 0;
        for (TraceTree p : pieces) n += p.nodeCount();
        return n;
    }

    /**
     * The rows of the joined tree in display order: each execution, then what happened inside it
     * in time order (its events, its callees, the pieces it handed off, each with its own rows).
     */
    public List<Row> rows() {
        List<Row> out = new ArrayList<>();
        addPiece(out, root, 0);
        return Collections.unmodifiableList(out);
    }

    private void addPiece(List<Row> out, TraceTree piece, int baseDepth) {
        // call trees may be deep: an explicit stack of items {node or event, depth, piece}
        List<Object[]> stack = new ArrayList<>();
        stack.add(new Object[] {piece.root(), baseDepth, piece});
        while (!stack.isEmpty()) {
            Object[] top = stack.remove(stack.size() - 1);
            if (top[0] instanceof TreeEvent ev) {
                out.add(new Row(null, ev, null, (TraceTree) top[2], (int) top[1]));
                continue;
            }
            TreeNode n = (TreeNode) top[0];
            int depth = (int) top[1];
            TraceTree owner = (TraceTree) top[2];
            TraceTree started = n == owner.root() && owner != root ? owner : null;
            out.add(new Row(n, null, started, owner, depth));
            // what happened inside n, by time: callees, events, hand-offs
            List<Object[]> inside = new ArrayList<>();
            for (TreeNode c : n.children) inside.add(new Object[] {c, depth + 1, owner, c.startWallNanos()});
            if (n.events != null) for (TreeEvent e : n.events) inside.add(new Object[] {e, depth + 1, owner, e.wallNanos()});
            if (n.handoffs != null) {
                for (TraceTree h : n.handoffs) inside.add(new Object[] {h.root(), depth + 1, h, h.handoffWallNanos()});
            }
            inside.sort((a, b) -> Long.compare((long) a[3], (long) b[3]));
            for (int i = inside.size() - 1; i >= 0; i--) stack.add(inside.get(i));
        }
    }

    /**
     * One row of a joined tree: an execution ({@link #node()}) or an event ({@link #event()}).
     *
     * @param node the execution, or null for an event row
     * @param event the event, or null for an execution row
     * @param handoff the piece this execution starts when it is the root of a handed-off piece
     *     (the hand-off edge), else null
     * @param piece the piece the row belongs to (its thread and trace)
     * @param depth depth in the joined tree (a handed-off piece's root is one below the execution
     *     that handed it off)
     */
    public record Row(TreeNode node, TreeEvent event, TraceTree handoff, TraceTree piece, int depth) {}
}
