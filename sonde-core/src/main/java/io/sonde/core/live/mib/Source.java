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

    final MibTree tree;
    final int id;
    final String path;
    /** Kinds this source can generate. */
    private final int offered;

    @SuppressWarnings("unused") // through GATE
    private int gate;
    /** Copy-on-write under the tree's lock; read by emitters. */
    private volatile Tap[] taps = NO_TAPS;
    /** Guarded by the tree's lock. */
    private boolean suspended;
    private boolean removed;
    private GateListener listener;
    /** Events generated here (under the emitting lock: the sensor's, or the tree's for objects). */
    private long produced;

    Source(MibTree tree, int id, String path, int offered) {
        this.tree = tree;
        this.id = id;
        this.path = path;
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

    public final String path() {
        return path;
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
        for (Tap t : taps) {
            if ((t.kindMask() & bit) != 0) t.offer(e);
        }
    }

    // ---- under the tree's lock ----

    final boolean isSuspended() {
        return suspended;
    }

    final void addTap(Tap t) {
        Tap[] old = taps;
        for (Tap x : old) if (x == t) return;
        Tap[] n = java.util.Arrays.copyOf(old, old.length + 1);
        n[old.length] = t;
        taps = n;
        updateGate();
    }

    final void removeTap(Tap t) {
        Tap[] old = taps;
        int k = -1;
        for (int i = 0; i < old.length; i++) if (old[i] == t) k = i;
        if (k < 0) return;
        Tap[] n = new Tap[old.length - 1];
        System.arraycopy(old, 0, n, 0, k);
        System.arraycopy(old, k + 1, n, k, old.length - k - 1);
        taps = n;
        updateGate();
    }

    final void setSuspended(boolean s) {
        suspended = s;
        updateGate();
    }

    /** The source left the tree: nothing more to generate, ever. */
    final void detach() {
        removed = true;
        taps = NO_TAPS;
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
        if (!suspended && !removed) {
            for (Tap t : taps) m |= t.kindMask();
            m &= offered;
        }
        int old = (int) GATE.getOpaque(this);
        GATE.setRelease(this, m);
        if (listener != null && (old == 0) != (m == 0)) listener.gateChanged(this, m != 0);
    }
}
