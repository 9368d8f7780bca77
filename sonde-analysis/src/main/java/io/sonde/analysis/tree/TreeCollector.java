package io.sonde.analysis.tree;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Keeps the first {@code limit} requests' joined trees (for display and export): the first root
 * pieces to start, and every piece linked to a kept one, on any thread, whenever it runs. A piece
 * whose parent is not known when it starts (its parent's records come later in the stream, or
 * are not in the log) is kept aside and settled at {@link #finish}: joined when its parent turned
 * out to be kept, shown as an unlinked fragment when its parent is not in the log. Memory: the
 * kept trees, at most {@link CallTreeBuilder#MAX_KEPT_NODES} nodes per joined tree.
 */
public final class TreeCollector implements ExecutionListener {
    private final int limit;
    private final Predicate<Operation> match;
    /** Joined trees in the order their root pieces started. */
    private final List<Joining> joined = new ArrayList<>();
    /** The joined tree each kept piece's trace id belongs to (key: agent and trace id). */
    private final Map<Key, Joining> byTrace = new HashMap<>();
    /** Pieces whose parent was unknown at their start, by trace id; settled at the end. */
    private final Map<Key, TraceTree> aside = new HashMap<>();
    private int asideWanted;
    /** Whether a trace id was seen in the pass so far (the tree builder's); none: nothing seen. */
    private java.util.function.BiPredicate<Integer, Long> seen = (agent, trace) -> false;
    private List<JoinedTree> result = List.of();

    /** Keeps joined trees whatever their operations. */
    public TreeCollector(int limit) {
        this(limit, null);
    }

    /**
     * @param match which operations a joined tree must contain to be kept (null: any)
     */
    public TreeCollector(int limit, Predicate<Operation> match) {
        this.limit = limit;
        this.match = match;
    }

    private record Key(int agent, long traceId) {}

    private static final class Joining {
        final Key root;
        TraceTree rootPiece;
        final List<TraceTree> pieces = new ArrayList<>();
        int nodes;
        boolean truncated;
        boolean matched;
        int keys = 1;

        Joining(Key root) {
            this.root = root;
        }
    }

    @Override
    public void onExecution(Execution execution) {}

    @Override
    public boolean wantsTree(ThreadInfo thread, long startWallNanos, long traceId, long parentTraceId) {
        if (limit <= 0) return false;
        int agent = thread.agent().index();
        Key key = new Key(agent, traceId);
        if (parentTraceId == 0) {
            if (joined.size() >= limit) return false;
            Joining j = new Joining(key);
            joined.add(j);
            byTrace.put(key, j);
            return true;
        }
        Joining j = byTrace.get(new Key(agent, parentTraceId));
        if (j != null) {
            if (j.nodes >= CallTreeBuilder.MAX_KEPT_NODES) {
                j.truncated = true;
                return false;
            }
            byTrace.put(key, j);
            j.keys++;
            return true;
        }
        // a parent already seen but not kept: a piece of a request not kept
        if (seen.test(agent, parentTraceId)) return false;
        // parent not (yet) known: keep a bounded number aside
        if (asideWanted >= 4 * limit + 16) return false;
        asideWanted++;
        return true;
    }

    @Override
    public void onTrace(TraceTree tree) {
        Key key = new Key(tree.thread().agent().index(), tree.traceId());
        Joining j = byTrace.get(key);
        if (j == null) {
            aside.put(key, tree);
            return;
        }
        add(j, tree);
        if (tree.parentTraceId() == 0 && !j.matched && j.keys == 1 && j.pieces.size() == 1) {
            // a root piece without a match and (so far) without linked pieces: free its place
            joined.remove(j);
            byTrace.remove(key);
        }
    }

    private void add(Joining j, TraceTree piece) {
        if (piece.parentTraceId() == 0 && piece.traceId() == j.root.traceId()) j.rootPiece = piece;
        j.pieces.add(piece);
        j.nodes += piece.nodeCount();
        if (piece.truncated()) j.truncated = true;
        if (!j.matched && contains(piece)) j.matched = true;
    }

    private boolean contains(TraceTree piece) {
        if (match == null) return true;
        for (TreeNode n : piece.nodes()) if (match.test(n.operation())) return true;
        return false;
    }

    /**
     * Where to ask whether a trace id has been seen in the pass (the tree builder's {@link
     * CallTreeBuilder#traceSeen}): a piece whose parent was seen but not kept belongs to a request
     * that is not kept, and is not kept aside.
     */
    public void seenTraces(java.util.function.BiPredicate<Integer, Long> seen) {
        this.seen = seen;
    }

    /**
     * Settles the pieces kept aside and joins every kept tree; {@code seen} says whether a trace
     * id is in the log at all (for pieces whose parent was not kept). Call once, at the end.
     */
    public void finish(java.util.function.BiPredicate<Integer, Long> seen) {
        List<JoinedTree> out = new ArrayList<>();
        List<TraceTree> unlinked = new ArrayList<>();
        // pieces aside: join those whose parent is kept (following chains: a parent may be aside too)
        boolean progress = true;
        while (progress && !aside.isEmpty()) {
            progress = false;
            for (var it = aside.entrySet().iterator(); it.hasNext(); ) {
                var e = it.next();
                Joining j = byTrace.get(new Key(e.getKey().agent(), e.getValue().parentTraceId()));
                if (j != null) {
                    byTrace.put(e.getKey(), j);
                    add(j, e.getValue());
                    it.remove();
                    progress = true;
                }
            }
        }
        for (Map.Entry<Key, TraceTree> e : aside.entrySet()) {
            TraceTree p = e.getValue();
            if (!seen.test(e.getKey().agent(), p.parentTraceId()) && !aside.containsKey(new Key(e.getKey().agent(), p.parentTraceId()))) {
                unlinked.add(p); // the parent is nowhere in the log: a fragment of its own
            }
        }
        for (Joining j : joined) {
            if (j.rootPiece == null || !j.matched) continue; // its root never completed (or no match)
            out.add(join(j.rootPiece, j.pieces, false, j.truncated));
        }
        // unlinked fragments: each with the pieces aside below it
        unlinked.sort((a, b) -> Long.compare(a.root().startWallNanos(), b.root().startWallNanos()));
        int fragments = 0;
        for (TraceTree u : unlinked) {
            if (fragments++ >= limit) break;
            List<TraceTree> pieces = new ArrayList<>();
            pieces.add(u);
            collectAside(u, pieces);
            if (match == null || pieces.stream().anyMatch(this::contains)) out.add(join(u, pieces, true, false));
        }
        result = Collections.unmodifiableList(out);
    }

    private void collectAside(TraceTree parent, List<TraceTree> into) {
        for (TraceTree p : aside.values()) {
            if (p.parentTraceId() == parent.traceId() && p.thread().agent().index() == parent.thread().agent().index() && !into.contains(p)) {
                into.add(p);
                collectAside(p, into);
            }
        }
    }

    /** Hangs each piece under the execution that handed it off and orders the pieces as the tree reads. */
    private static JoinedTree join(TraceTree root, List<TraceTree> pieces, boolean unlinked, boolean truncated) {
        Map<Long, TraceTree> byId = new HashMap<>();
        for (TraceTree p : pieces) byId.put(p.traceId(), p);
        for (TraceTree p : pieces) for (TreeNode n : p.nodes()) n.handoffs = null;
        for (TraceTree p : pieces) {
            if (p == root) continue;
            TraceTree parent = byId.get(p.parentTraceId());
            // a parent piece that was not kept whole (broken before it could be handed on): hang
            // the piece under the request's root rather than lose it
            if (parent == null || parent == p) parent = root;
            TreeNode at = parent.root();
            for (TreeNode n : parent.nodes()) {
                if (n.orderIndex() == p.parentOrderIndex()) {
                    at = n;
                    break;
                }
            }
            if (at.handoffs == null) at.handoffs = new ArrayList<>(2);
            at.handoffs.add(p);
        }
        List<TraceTree> ordered = new ArrayList<>();
        for (TraceTree p : pieces) {
            for (TreeNode n : p.nodes()) {
                if (n.handoffs != null) n.handoffs.sort((a, b) -> Long.compare(a.handoffWallNanos(), b.handoffWallNanos()));
            }
        }
        // pre-order over pieces with an explicit stack; the seen set guards against crafted
        // input whose parent links loop
        java.util.Set<TraceTree> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        java.util.ArrayDeque<TraceTree> todo = new java.util.ArrayDeque<>();
        todo.push(root);
        while (!todo.isEmpty()) {
            TraceTree piece = todo.pop();
            if (!seen.add(piece)) continue;
            ordered.add(piece);
            List<TraceTree> below = new ArrayList<>();
            for (TreeNode n : piece.nodes()) if (n.handoffs != null) below.addAll(n.handoffs);
            for (int i = below.size() - 1; i >= 0; i--) todo.push(below.get(i));
        }
        return new JoinedTree(root, ordered, unlinked, truncated);
    }

    /** The joined trees: complete requests in the order they started, then unlinked fragments. */
    public List<JoinedTree> joinedTrees() {
        return result;
    }

    /** The pieces of the joined trees, in tree order. */
    public List<TraceTree> trees() {
        List<TraceTree> out = new ArrayList<>();
        for (JoinedTree j : result) out.addAll(j.pieces());
        return Collections.unmodifiableList(out);
    }
}
