package io.sonde.core.live.session;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Moves the unparks of a burst off the application thread: a producer that finds several
 * dispatchers asleep unparks only the first and pushes the others here; the first one up unparks
 * the rest.
 *
 * <p>A lock-free stack (Treiber) of sessions linked through {@link ObserverEndpoint#relayNext}. A
 * session is pushed only by the producer whose CAS took its state from SLEEPING to QUEUED, so it is
 * in the stack at most once. The producer that makes the stack non-empty unparks the session it
 * pushed; pushes onto a non-empty stack unpark nobody. That is safe because the session at the
 * bottom was unparked by its pusher, was parked (or about to park: QUEUED is only ever claimed from
 * SLEEPING, where a dispatcher runs no observer code) and, once up, finds itself QUEUED and empties
 * the stack before it runs any observer code ({@link ObserverEndpoint}'s wake-up step). So no
 * session waits on another session's observer, and a stalled observer holds up no one's wake-up.
 */
final class WakeRelay {
    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(WakeRelay.class, "head", ObserverEndpoint.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through HEAD
    private volatile ObserverEndpoint head;

    /**
     * Producer, after its CAS took {@code s} from SLEEPING to QUEUED: pushes it; returns whether the
     * stack was empty, in which case the caller unparks {@code s} itself.
     */
    boolean push(ObserverEndpoint s) {
        ObserverEndpoint h;
        do {
            h = (ObserverEndpoint) HEAD.getVolatile(this);
            s.relayNext = h;
        } while (!HEAD.compareAndSet(this, h, s));
        return h == null;
    }

    /** Any dispatcher: takes every queued session, marks it popped and unparks it (except {@code self}). */
    void unparkAll(ObserverEndpoint self) {
        if (HEAD.getVolatile(this) == null) return;
        ObserverEndpoint s = (ObserverEndpoint) HEAD.getAndSet(this, null);
        while (s != null) {
            ObserverEndpoint next = s.relayNext; // before popped(): from then on s may be pushed again
            s.relayNext = null;
            s.popped(self);
            s = next;
        }
    }
}
