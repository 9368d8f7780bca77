package io.sonde.core.live.mib;

import io.sonde.api.live.LiveEvent;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Something that generates events: an object sensor or an attribute sensor. Holds the gate and
 * the fan-out list of taps.
 *
 * <p>The gate is the mask of event kinds some tap wants, 0 when none does, when suspended or when
 * the source was deleted. It is written under the tree's lock (release) and read on the hot path
 * with one opaque load: no fence, but not hoistable out of a loop, so a subscription reaches a
 * sensor written in a running loop (as the method probes' switches).
 */
public abstract class Source {
    private static final VarHandle GATE = handle(MethodHandles.lookup(), "gate", int.class);
    private static final Tap[] NO_TAPS = new Tap[0];

    private static final VarHandle TAPS = handle(MethodHandles.lookup(), "taps", Tap[].class);
    private static final VarHandle REMOVED = handle(MethodHandles.lookup(), "removed", boolean.class);

    final MibTree tree;
    final int id;
    final String name;
    /** Kinds this source can generate. */
    private final int offered;

    /**
     * Built on first use ({@link #path()}): an object that lives for one request and that nobody
     * looks at never builds its path. Racy single-check: a String is immutable (safely published
     * through its final fields) and every thread builds an equal one, so a lost race costs only a
     * duplicate string.
     */
    private String path;

    @SuppressWarnings("unused") // through GATE
    private int gate;
    /**
     * Copy-on-write under the tree's lock (release store); read by emitters (acquire load). Not
     * volatile: the fence of a volatile store would be paid by every delete of an idle source.
     */
    @SuppressWarnings("unused") // through TAPS
    private Tap[] taps = NO_TAPS;
    /** Guarded by the tree's lock. */
    private boolean suspended;
    /** Written once under the tree's lock (release), read anywhere (acquire). */
    @SuppressWarnings("unused") // through REMOVED
    private boolean removed;
    private GateListener listener;
    /** Events generated here (under the emitting lock: the sensor's, or the tree's for objects). */
    private long produced;

    /**
     * Members of an object (its attributes and child objects, one namespace) form a doubly linked
     * list in creation order through these fields, guarded by the tree's lock: no map entry per
     * member; {@link ObjectNode} adds a name index only when it has many members.
     */
    Source prevMember;
    Source nextMember;

    Source(MibTree tree, int id, String name, int offered) {
        this.tree = tree;
        this.id = id;
        this.name = name;
        this.offered = offered;
    }

    /** The VarHandle of a field of the class {@code lookup} belongs to. */
    static VarHandle handle(MethodHandles.Lookup lookup, String field, Class<?> type) {
        try {
            return lookup.findVarHandle(lookup.lookupClass(), field, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public final int id() {
        return id;
    }

    /** The path: the owner's path, '/', this name ("" for the root). */
    public final String path() {
        String p = path;
        if (p == null) path = p = buildPath();
        return p;
    }

    abstract String buildPath();

    /** Whether this source left the tree (deleted with its object). */
    final boolean isRemoved() {
        return (boolean) REMOVED.getAcquire(this);
    }

    /** The gate: the kinds to generate now, 0 for nothing. One opaque load. */
    public final int gate() {
        return (int) GATE.getOpaque(this);
    }

    /** Events this source generated since it was created. */
    public final long producedEvents() {
        synchronized (emitLock()) {
            return produced;
        }
    }

    /** The lock emitters of this source hold while they generate (keeps events in order per source). */
    abstract Object emitLock();

    /** Sends {@code e} to every tap wanting its kind; the caller holds {@link #emitLock()}. */
    final void emit(LiveEvent e) {
        produced++;
        tree.countProduced();
        int bit = e.kind().bit();
        for (Tap t : taps()) {
            if ((t.kindMask() & bit) != 0) t.offer(e);
        }
    }

    // ---- under the tree's lock ----

    final boolean isSuspended() {
        return suspended;
    }

    private Tap[] taps() {
        return (Tap[]) TAPS.getAcquire(this);
    }

    final void addTap(Tap t) {
        Tap[] old = taps();
        for (Tap x : old) if (x == t) return;
        Tap[] n = java.util.Arrays.copyOf(old, old.length + 1);
        n[old.length] = t;
        TAPS.setRelease(this, n);
        updateGate();
    }

    /** The taps of a new source, all at once ({@code all} is not copied: the caller hands it over). */
    final void setTaps(Tap[] all) {
        TAPS.setRelease(this, all);
        updateGate();
    }

    final void removeTap(Tap t) {
        Tap[] old = taps();
        int k = -1;
        for (int i = 0; i < old.length; i++) if (old[i] == t) k = i;
        if (k < 0) return;
        Tap[] n = new Tap[old.length - 1];
        System.arraycopy(old, 0, n, 0, k);
        System.arraycopy(old, k + 1, n, k, old.length - k - 1);
        TAPS.setRelease(this, n);
        updateGate();
    }

    final void setSuspended(boolean s) {
        suspended = s;
        updateGate();
    }

    /** Marks the source as gone from the tree, before its last event (the gate stays as it is). */
    final void markRemoved() {
        REMOVED.setRelease(this, true);
    }

    /** The source left the tree: nothing more to generate, ever. */
    final void detach() {
        markRemoved();
        if (taps() != NO_TAPS) TAPS.setRelease(this, NO_TAPS);
        updateGate();
    }

    final void setGateListener(GateListener l) {
        listener = l;
    }

    final int offered() {
        return offered;
    }

    private void updateGate() {
        int m = 0;
        if (!suspended && !isRemoved()) {
            for (Tap t : taps()) m |= t.kindMask();
            m &= offered;
        }
        int old = (int) GATE.getOpaque(this);
        if (old == m) return;
        GATE.setRelease(this, m);
        if (listener != null && (old == 0) != (m == 0)) listener.gateChanged(this, m != 0);
    }
}
