package io.sonde.analysis.tree;

import io.sonde.analysis.correction.ProbeCost;
import io.sonde.analysis.input.AgentInfo;
import io.sonde.analysis.input.EventFields;
import io.sonde.analysis.input.RecordHandler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Rebuilds call trees from a record stream, thread by thread, following the call-tree semantics of
 * the format: ENTER pushes, EXIT pops (the probe id must match the top), a trace is complete when
 * its thread's stack is empty again, and a GAP (or a mismatched EXIT) throws away the open stack
 * and waits for the next TRACE_START.
 *
 * <p>Pieces on different threads are linked by their trace starts (parent trace id and order
 * index, and for work handed over with its time the hand-off wait): the builder counts joined
 * traces (pieces without a parent), pieces linked to a parent in the log, and pieces whose parent
 * is not in the log ({@link #finish()} settles those, since a parent may come later in the
 * stream), keeping only the trace ids seen (compact runs, {@link TraceIdSet}).
 *
 * <p>Memory is bounded by the open stacks: each completed execution is handed to the listener and
 * forgotten. Only when the listener asks for a trace's tree ({@link ExecutionListener#wantsTree})
 * are that trace's nodes kept until it completes, at most {@link #MAX_KEPT_NODES} of them.
 */
public final class CallTreeBuilder implements RecordHandler {
    /** Pieces waiting for a late parent that a bounded builder keeps; later ones count as unlinked at once. */
    static final int MAX_PENDING_BOUNDED = 1 << 16;
    /** Largest number of nodes kept for one requested tree; beyond it the tree is truncated. */
    public static final int MAX_KEPT_NODES = 20_000;
    /**
     * Largest number of nodes kept for requested trees still open, over all threads together: with
     * many threads each keeping a tree, this (not the per-tree limit) bounds the memory.
     */
    public static final int MAX_OPEN_KEPT_NODES = 200_000;

    private final OperationTable operations;
    private final ExecutionListener listener;
    private final Predicate<String> threadFilter;
    private final ProbeCost probeCost;
    private final TreeCounters counters = new TreeCounters();
    private final List<AgentState> agents = new ArrayList<>();
    private final Execution execution = new Execution();
    // Records arrive in blocks of one thread, so the last thread looked up is almost always the next.
    private ThreadState lastThread;
    // Nodes held in the kept lists of open traces, all threads together.
    private int openKeptNodes;
    /** Trace ids whose trace start was read on an included thread. */
    private final TraceIdSet seenTraces = new TraceIdSet();
    /** Completed pieces whose parent had not been seen yet: (agent, parent trace id) pairs. */
    private int[] pendingAgents = new int[16];
    private long[] pendingParents = new long[16];
    private int pending;
    /** Bounds of a builder that follows an endless stream (0: none; see {@link #limitOpenTrees}). */
    private int maxDepth;
    private int maxOpenTrees;
    /** Threads with a trace open now (depth above 0), counted only while bounded. */
    private int openTrees;

    /**
     * @param operations where operations are interned (shared by everything that names them)
     * @param listener receives executions and requested trees
     * @param threadFilter which thread names to analyse (records of other threads are skipped)
     * @param probeCost per-probe cost subtracted for perturbation correction ({@link ProbeCost#NONE}
     *     for none)
     */
    public CallTreeBuilder(OperationTable operations, ExecutionListener listener, Predicate<String> threadFilter, ProbeCost probeCost) {
        this.operations = operations;
        this.listener = listener;
        this.threadFilter = threadFilter;
        this.probeCost = probeCost;
    }

    /**
     * Bounds the memory of a builder fed by a stream that never ends (the collector's live
     * export): a trace deeper than {@code maxDepth} open executions is thrown away (counted in
     * {@link TreeCounters#tooDeepTraces}); when a trace starts while {@code maxOpenTrees} threads
     * have one open, the one open longest is thrown away ({@link TreeCounters#abandonedTraces}:
     * traces that never complete end there), and threads with nothing open are forgotten when
     * there are twice as many threads as that. Either thrown-away trace's thread waits for its next
     * TRACE_START. Unbounded (the default) suits a log, which ends.
     */
    public void limitOpenTrees(int maxDepth, int maxOpenTrees) {
        if (maxDepth < 1 || maxOpenTrees < 1) {
            throw new IllegalArgumentException("open-tree bounds must be at least 1: depth " + maxDepth + ", trees " + maxOpenTrees);
        }
        this.maxDepth = maxDepth;
        this.maxOpenTrees = maxOpenTrees;
        openTrees = 0;
        for (AgentState a : agents) {
            if (a == null) continue;
            for (ThreadState t : a.threads.values()) if (t.depth > 0) openTrees++;
        }
    }

    public TreeCounters counters() {
        return counters;
    }

    public OperationTable operations() {
        return operations;
    }

    /** The agents met so far, by index. */
    public List<AgentInfo> agents() {
        List<AgentInfo> out = new ArrayList<>(agents.size());
        for (AgentState a : agents) out.add(a.info);
        return out;
    }

    /** Threads the builder holds state for, all agents together. */
    public int threadsTracked() {
        int n = 0;
        for (AgentState a : agents) if (a != null) n += a.threads.size();
        return n;
    }

    /** Counts the executions still open (call at the end of the input). */
    public long openExecutions() {
        long open = 0;
        for (AgentState a : agents) {
            for (ThreadState t : a.threads.values()) open += t.depth;
        }
        return open;
    }

    /**
     * Marks the end of the input: executions still open are counted in {@link
     * TreeCounters#openAtEnd}, and the pieces whose parent came later than they did are settled
     * as linked or unlinked.
     */
    public void finish() {
        counters.openAtEnd = openExecutions();
        for (int i = 0; i < pending; i++) {
            if (seenTraces.contains(pendingAgents[i], pendingParents[i])) counters.linkedPieces++;
            else counters.unlinkedPieces++;
        }
        pending = 0;
    }

    /** Whether a trace start of this trace id was read on an included thread of the agent. */
    public boolean traceSeen(int agent, long traceId) {
        return seenTraces.contains(agent, traceId);
    }

    /** Counts a completed or broken piece as a joined trace, a linked piece, or one to settle at the end. */
    private void countPiece(int agent, ThreadState t) {
        if (t.handoffWait != Execution.UNKNOWN) counters.handoffs++;
        if (t.parentTraceId == 0) {
            counters.joinedTraces++;
        } else if (seenTraces.contains(agent, t.parentTraceId)) {
            counters.linkedPieces++;
        } else if (maxOpenTrees > 0 && pending >= MAX_PENDING_BOUNDED) {
            counters.unlinkedPieces++; // bounded: no longer waits for a parent that may come later
        } else {
            if (pending == pendingParents.length) {
                pendingParents = Arrays.copyOf(pendingParents, pending * 2);
                pendingAgents = Arrays.copyOf(pendingAgents, pending * 2);
            }
            pendingAgents[pending] = agent;
            pendingParents[pending++] = t.parentTraceId;
        }
    }

    @Override
    public void onAgent(AgentInfo agent) {
        while (agents.size() <= agent.index()) agents.add(null);
        if (agents.get(agent.index()) == null) agents.set(agent.index(), new AgentState(agent));
    }

    @Override
    public void onFrame(int agent, long wallNanos, long monoNanos) {
        agent(agent).frameClocks(wallNanos, monoNanos);
    }

    @Override
    public void onProbeDef(int agent, int probeId, String name, String signature) {
        agent(agent).defineProbe(probeId, operations.intern(name, signature));
    }

    @Override
    public void onStringDef(int agent, int stringId, String value) {
        agent(agent).strings.put(stringId, value);
    }

    @Override
    public void onThreadDef(int agent, long threadId, String name) {
        AgentState a = agent(agent);
        a.threadNames.put(threadId, name);
        ThreadState t = a.threads.get(threadId);
        if (t != null && !t.info.name().equals(name)) {
            // Renamed thread (or a name that came late): re-evaluate the filter from now on.
            t.info = new ThreadInfo(a.info, threadId, name);
            t.included = threadFilter.test(name);
        }
    }

    @Override
    public void onEventDef(int agent, int eventTypeId, String name) {
        agent(agent).eventNames.put(eventTypeId, name);
    }

    @Override
    public void onTraceStart(int agent, long threadId, long traceId, long parentTraceId, int parentOrderIndex, long handoffTime) {
        counters.records++;
        ThreadState t = thread(agent, threadId);
        if (!t.included) {
            counters.filteredThreadRecords++;
            return;
        }
        if (t.depth > 0) discardStack(t);
        t.synced = true;
        t.traceId = traceId;
        t.parentTraceId = parentTraceId;
        t.parentOrderIndex = parentOrderIndex;
        t.handoffTime = handoffTime;
        t.nextOrderIndex = 0;
        seenTraces.add(agent, traceId);
    }

    @Override
    public void onEnter(int agent, long threadId, int probeId, long timeNanos, long cpuNanos) {
        counters.records++;
        counters.enters++;
        ThreadState t = thread(agent, threadId);
        if (!t.included) {
            counters.filteredThreadRecords++;
            return;
        }
        if (!t.synced) {
            counters.skippedUnsynchronised++;
            return;
        }
        if (maxDepth > 0 && !withinBounds(t)) return;
        if (t.depth == 0) {
            if (maxOpenTrees > 0) openTrees++;
            // the wait between hand-off and start; clamped at 0 (both are this JVM's monotonic clock)
            t.handoffWait = t.handoffTime == NO_HANDOFF ? Execution.UNKNOWN : Math.max(0, timeNanos - t.handoffTime);
            long wall = timeNanos + t.agent.wallOffset;
            listener.onPieceStart(t.info, t.traceId, wall);
            t.keep = listener.wantsTree(t.info, wall, t.traceId, t.parentTraceId);
            t.truncated = false;
            t.keptEvents = 0;
        }
        Operation op = t.agent.operation(probeId);
        int d = t.push();
        t.probe[d] = probeId;
        t.op[d] = op;
        t.order[d] = t.nextOrderIndex++;
        t.start[d] = timeNanos;
        t.cpuStart[d] = cpuNanos;
        t.childWall[d] = 0;
        t.childCpu[d] = 0;
        t.childCpuUnknown[d] = false;
        t.children[d] = 0;
        t.descendants[d] = 0;
        t.node[d] = null;
        if (t.keep) {
            // A node is kept only under a kept parent, so a truncated tree never has orphans.
            boolean parentKept = d == 0 || t.node[d - 1] != null;
            if (parentKept && t.kept.size() < MAX_KEPT_NODES && openKeptNodes < MAX_OPEN_KEPT_NODES) {
                openKeptNodes++;
                TreeNode n = new TreeNode(op, d, t.order[d], timeNanos + t.agent.wallOffset);
                if (d > 0) t.node[d - 1].children.add(n);
                t.node[d] = n;
                t.kept.add(n);
            } else {
                t.truncated = true;
            }
        }
    }

    @Override
    public void onExit(int agent, long threadId, int probeId, long timeNanos, long cpuNanos, int exceptionStringId) {
        counters.records++;
        counters.exits++;
        ThreadState t = thread(agent, threadId);
        if (!t.included) {
            counters.filteredThreadRecords++;
            return;
        }
        if (!t.synced) {
            counters.skippedUnsynchronised++;
            return;
        }
        if (t.depth == 0) {
            counters.unmatchedExits++;
            return;
        }
        int d = t.depth - 1;
        if (t.probe[d] != probeId) {
            counters.mismatchedExits++;
            discardStack(t);
            t.synced = false;
            return;
        }
        t.depth = d;

        long rawIncl = timeNanos - t.start[d];
        long rawExcl = rawIncl - t.childWall[d];
        boolean cpuKnown = cpuNanos != NO_CPU && t.cpuStart[d] != NO_CPU;
        long rawCpuIncl = cpuKnown ? cpuNanos - t.cpuStart[d] : Execution.UNKNOWN;
        long rawCpuExcl = cpuKnown && !t.childCpuUnknown[d] ? rawCpuIncl - t.childCpu[d] : Execution.UNKNOWN;
        long desc = t.descendants[d];
        int kids = t.children[d];

        Execution e = execution;
        e.thread = t.info;
        e.operation = t.op[d];
        e.traceId = t.traceId;
        e.parentTraceId = t.parentTraceId;
        e.parentOrderIndex = t.parentOrderIndex;
        e.handoffWaitNanos = d == 0 ? t.handoffWait : Execution.UNKNOWN;
        e.orderIndex = t.order[d];
        e.depth = d;
        e.startMonoNanos = t.start[d];
        e.startWallNanos = t.start[d] + t.agent.wallOffset;
        e.rawWallInclusive = rawIncl;
        // Perturbation correction: every nested execution's probe pair cost lies inside this one;
        // the direct callees' pairs lie in its exclusive part (see docs/analysis.md).
        e.wallInclusive = Math.max(0, rawIncl - desc * probeCost.wallNanos());
        e.wallExclusive = Math.max(0, rawExcl - kids * probeCost.wallNanos());
        e.cpuInclusive = cpuKnown ? Math.max(0, rawCpuIncl - desc * probeCost.cpuNanos()) : Execution.UNKNOWN;
        e.cpuExclusive = rawCpuExcl != Execution.UNKNOWN ? Math.max(0, rawCpuExcl - kids * probeCost.cpuNanos()) : Execution.UNKNOWN;
        e.children = kids;
        e.descendants = desc;
        e.exception = exceptionStringId == NO_EXCEPTION ? null : t.agent.string(exceptionStringId);
        counters.executions++;

        TreeNode n = t.node[d];
        if (n != null) {
            n.wallInclusive = e.wallInclusive;
            n.wallExclusive = e.wallExclusive;
            n.cpuInclusive = e.cpuInclusive;
            n.cpuExclusive = e.cpuExclusive;
            n.exception = e.exception;
            t.node[d] = null;
        }

        if (d > 0) {
            int p = d - 1;
            t.childWall[p] += rawIncl;
            if (cpuKnown) t.childCpu[p] += rawCpuIncl;
            else t.childCpuUnknown[p] = true;
            t.children[p]++;
            t.descendants[p] += 1 + desc;
        }
        listener.onExecution(e);
        if (d == 0) {
            if (maxOpenTrees > 0) openTrees--;
            counters.traces++;
            countPiece(agent, t);
            if (t.keep && n != null) {
                listener.onTrace(new TraceTree(t.info, t.traceId, t.parentTraceId, t.parentOrderIndex, t.handoffWait, n, t.kept.size(),
                        t.truncated, false));
            }
            releaseKept(t);
            // The format requires a trace start before the next root ENTER; tolerate its absence
            // by continuing with trace id 0 rather than dropping data.
            t.traceId = 0;
            t.parentTraceId = 0;
            t.parentOrderIndex = -1;
            t.handoffTime = NO_HANDOFF;
            t.nextOrderIndex = 0;
        }
    }

    @Override
    public void onEvent(int agent, long threadId, int eventTypeId, long timeNanos, EventFields fields) {
        counters.records++;
        counters.events++;
        ThreadState t = thread(agent, threadId);
        if (!t.included) {
            counters.filteredThreadRecords++;
            return;
        }
        if (!t.synced || t.depth == 0) return; // outside any execution: counted only
        String type = t.agent.eventName(eventTypeId);
        long wall = timeNanos + t.agent.wallOffset;
        listener.onTreeEvent(t.info, t.traceId, type, wall, fields);
        TreeNode n = t.node[t.depth - 1];
        if (t.keep && n != null) {
            // events share the kept-node budget of their tree
            if (t.kept.size() + t.keptEvents < MAX_KEPT_NODES) {
                t.keptEvents++;
                n.addEvent(new TreeEvent(type, wall, fields.text()));
            } else {
                t.truncated = true;
            }
        }
    }

    @Override
    public void onGap(int agent, long threadId, long droppedRecords) {
        counters.records++;
        counters.gaps++;
        counters.droppedRecords += droppedRecords;
        ThreadState t = thread(agent, threadId);
        discardStack(t);
        t.synced = false;
    }

    /**
     * A hole in the agent's input: every thread's open trace is closed as broken (counted, and its
     * kept tree handed on marked broken, with unknown times for the executions still open), and
     * every thread waits for its next TRACE_START, so no record after the hole joins a tree begun
     * before it.
     */
    @Override
    public void onHole(int agent) {
        for (ThreadState t : agent(agent).threads.values()) {
            if (t.depth > 0) {
                counters.brokenTraces++;
                counters.brokenExecutions += t.depth;
                countPiece(agent, t);
                TreeNode root = t.kept.isEmpty() ? null : t.kept.get(0);
                if (t.keep && root != null && root.depth() == 0) {
                    for (int d = 0; d < t.depth; d++) {
                        TreeNode open = t.node[d];
                        if (open != null) open.markUnknown();
                    }
                    listener.onTrace(new TraceTree(t.info, t.traceId, t.parentTraceId, t.parentOrderIndex, t.handoffWait, root, t.kept.size(),
                            t.truncated, true));
                }
                t.depth = 0;
                if (maxOpenTrees > 0) openTrees--;
                releaseKept(t);
                Arrays.fill(t.node, null);
            }
            t.synced = false;
        }
    }

    @Override
    public void onTrailer(int agent, long produced, long written) {
        counters.trailers++;
        counters.trailerProduced += produced;
        counters.trailerWritten += written;
    }

    /**
     * Bounded builders, before an ENTER: throws away a trace grown too deep, or the trace open
     * longest when a new one would exceed the open-tree bound. False if the ENTER is to be skipped.
     */
    private boolean withinBounds(ThreadState t) {
        if (t.depth >= maxDepth) {
            counters.tooDeepTraces++;
            counters.skippedUnsynchronised++;
            discardStack(t);
            t.synced = false;
            return false;
        }
        if (t.depth == 0 && openTrees >= maxOpenTrees) {
            ThreadState oldest = null;
            for (AgentState a : agents) {
                if (a == null) continue;
                for (ThreadState o : a.threads.values()) {
                    if (o.depth > 0 && (oldest == null || o.start[0] - oldest.start[0] < 0)) oldest = o;
                }
            }
            if (oldest != null) {
                counters.abandonedTraces++;
                discardStack(oldest);
                oldest.synced = false;
            }
        }
        return true;
    }

    private void discardStack(ThreadState t) {
        if (maxOpenTrees > 0 && t.depth > 0) openTrees--;
        counters.discardedOpenExecutions += t.depth;
        t.depth = 0;
        releaseKept(t);
        Arrays.fill(t.node, null);
    }

    /** Forgets the thread's kept nodes (handed on or thrown away) and returns them to the budget. */
    private void releaseKept(ThreadState t) {
        openKeptNodes -= t.kept.size();
        t.keep = false;
        t.truncated = false;
        if (!t.kept.isEmpty()) t.kept = new ArrayList<>();
    }

    private AgentState agent(int index) {
        AgentState a = index < agents.size() ? agents.get(index) : null;
        if (a == null) {
            // A source that did not announce the agent: make one up so nothing is lost.
            onAgent(new AgentInfo(index, new java.util.UUID(0, index), "", 0));
            a = agents.get(index);
        }
        return a;
    }

    private ThreadState thread(int agent, long threadId) {
        ThreadState t = lastThread;
        if (t != null && t.threadId == threadId && t.agent.info.index() == agent) return t;
        AgentState a = agent(agent);
        t = a.threads.get(threadId);
        if (t == null) {
            if (maxOpenTrees > 0 && a.threads.size() >= 2 * maxOpenTrees) {
                // bounded: forget the threads with nothing open (at most maxOpenTrees have something)
                a.threads.values().removeIf(o -> o.depth == 0);
            }
            String name = a.threadNames.getOrDefault(threadId, "thread-" + threadId);
            t = new ThreadState(a, new ThreadInfo(a.info, threadId, name), threadFilter.test(name));
            a.threads.put(threadId, t);
        }
        lastThread = t;
        return t;
    }

    /**
     * A frame whose wall-minus-monotonic offset lies this much away from the agent's shows a wall-clock step, or (below
     * it) a monotonic clock read late (preempted between the two reads: 2.5 ms was seen on a loaded machine); less is
     * jitter and changes nothing. Chosen, not tuned: far above the µs of ordinary jitter, and a clock slewed at NTP's
     * 500 ppm limit needs 2 s to drift this far.
     */
    static final long WALL_CLOCK_STEP_NANOS = 1_000_000;

    /** How long (monotonic time) every frame must lie more than a step below before the offset follows it down. */
    static final long WALL_CLOCK_STEP_PERSISTS_NANOS = 1_000_000_000;

    /** Probe ids below this are kept in an array (at most this many entries); larger ones in a map. */
    static final int DENSE_PROBE_IDS = 1 << 16;

    /** Per-agent registry: probes, strings, thread names, and the clock anchor. */
    private final class AgentState {
        final AgentInfo info;
        /** Probes by id: ids below {@link #DENSE_PROBE_IDS} (agents number probes from 1) in an array. */
        Operation[] probes = new Operation[64];
        /** Other probe ids (only crafted or foreign input has them), so an id read from a file never sizes an array. */
        Map<Integer, Operation> sparseProbes;
        final Map<Integer, String> strings = new HashMap<>();
        final Map<Long, String> threadNames = new HashMap<>();
        final Map<Long, ThreadState> threads = new HashMap<>();
        final Map<Integer, String> eventNames = new HashMap<>();
        long wallOffset;
        private boolean offsetKnown;
        /** Monotonic time of the first of a run of frames lying more than a step below the offset; NO_RUN if none. */
        private long lowSinceMono = NO_RUN;
        private static final long NO_RUN = Long.MIN_VALUE;

        AgentState(AgentInfo info) {
            this.info = info;
        }

        /**
         * A frame header reads the wall clock, then the monotonic one, so a frame's offset (wall - mono) lies below the
         * true one by however long the writer took between the two reads (µs; ms when it was preempted), never above.
         * Start times are converted when an execution ends, so any change of the offset between a child's end and its
         * parent's could start the child before the parent: the offset therefore stays as it is through jitter, and
         * moves only for a wall-clock step of more than {@link #WALL_CLOCK_STEP_NANOS}: at once when frames lie above
         * it (a step forward, or a first frame that was read late), and only when every frame for
         * {@link #WALL_CLOCK_STEP_PERSISTS_NANOS} lay below it (a step back; a single low frame is a late read).
         */
        void frameClocks(long wallNanos, long monoNanos) {
            long offset = wallNanos - monoNanos;
            if (!offsetKnown || offset > wallOffset + WALL_CLOCK_STEP_NANOS) {
                wallOffset = offset;
                offsetKnown = true;
                lowSinceMono = NO_RUN;
            } else if (offset >= wallOffset - WALL_CLOCK_STEP_NANOS) {
                lowSinceMono = NO_RUN; // jitter: kept as it is
            } else if (lowSinceMono == NO_RUN) {
                lowSinceMono = monoNanos;
            } else if (monoNanos - lowSinceMono >= WALL_CLOCK_STEP_PERSISTS_NANOS) {
                wallOffset = offset;
                lowSinceMono = NO_RUN;
            }
        }

        void defineProbe(int probeId, Operation op) {
            if (probeId >= 0 && probeId < DENSE_PROBE_IDS) {
                if (probeId >= probes.length) probes = Arrays.copyOf(probes, Math.min(DENSE_PROBE_IDS, Math.max(probeId + 1, probes.length * 2)));
                probes[probeId] = op;
            } else {
                if (sparseProbes == null) sparseProbes = new HashMap<>();
                sparseProbes.put(probeId, op);
            }
        }

        Operation operation(int probeId) {
            Operation op = probeId >= 0 && probeId < probes.length ? probes[probeId] : sparseProbes == null ? null : sparseProbes.get(probeId);
            if (op == null) {
                // An undefined probe id breaks the format's rule; still count its time under a visible name.
                op = operations.intern("<undefined probe " + probeId + ">", "");
                defineProbe(probeId, op);
            }
            return op;
        }

        String eventName(int id) {
            String s = eventNames.get(id);
            return s != null ? s : "<event type " + id + ">";
        }

        String string(int id) {
            String s = strings.get(id);
            return s != null ? s : "<undefined string " + id + ">";
        }
    }

    /** The open stack of one thread, as parallel primitive arrays (no object per frame). */
    private static final class ThreadState {
        final AgentState agent;
        final long threadId;
        ThreadInfo info;
        boolean included;
        boolean synced = true;
        long traceId;
        long parentTraceId;
        int parentOrderIndex = -1;
        /** Hand-off time from the trace start (NO_HANDOFF: none), and the wait it makes (UNKNOWN: none). */
        long handoffTime = NO_HANDOFF;
        long handoffWait = Execution.UNKNOWN;
        int nextOrderIndex;
        /** Events kept in the current kept tree (they share its node budget). */
        int keptEvents;
        int depth;
        int[] probe = new int[16];
        Operation[] op = new Operation[16];
        int[] order = new int[16];
        long[] start = new long[16];
        long[] cpuStart = new long[16];
        long[] childWall = new long[16];
        long[] childCpu = new long[16];
        boolean[] childCpuUnknown = new boolean[16];
        int[] children = new int[16];
        long[] descendants = new long[16];
        TreeNode[] node = new TreeNode[16];
        boolean keep;
        boolean truncated;
        List<TreeNode> kept = new ArrayList<>();

        ThreadState(AgentState agent, ThreadInfo info, boolean included) {
            this.agent = agent;
            this.threadId = info.threadId();
            this.info = info;
            this.included = included;
        }

        /** Pushes a frame and returns its index. */
        int push() {
            if (depth == probe.length) {
                int n = depth * 2;
                probe = Arrays.copyOf(probe, n);
                op = Arrays.copyOf(op, n);
                order = Arrays.copyOf(order, n);
                start = Arrays.copyOf(start, n);
                cpuStart = Arrays.copyOf(cpuStart, n);
                childWall = Arrays.copyOf(childWall, n);
                childCpu = Arrays.copyOf(childCpu, n);
                childCpuUnknown = Arrays.copyOf(childCpuUnknown, n);
                children = Arrays.copyOf(children, n);
                descendants = Arrays.copyOf(descendants, n);
                node = Arrays.copyOf(node, n);
            }
            return depth++;
        }
    }
}
