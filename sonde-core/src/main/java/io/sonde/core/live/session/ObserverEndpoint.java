package io.sonde.core.live.session;

import io.sonde.api.live.EventKind;
import io.sonde.api.live.LiveEvent;
import io.sonde.api.live.Observer;
import io.sonde.api.live.ObserverSession;
import io.sonde.api.live.Qos;
import io.sonde.api.live.Subscription;
import io.sonde.core.live.mib.LiveClock;
import io.sonde.core.live.mib.MibTree;
import io.sonde.core.live.mib.PathPattern;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One observer's session: two bounded queues (urgent, regular) of references to shared events,
 * the subscriptions with their QoS, and the dispatcher that turns queued events into deliveries.
 *
 * <p><b>Threads.</b> Application threads only {@link #enqueue} (a CAS and two stores, sometimes
 * an unpark). Delivery runs on the session's own dispatcher thread, one per session: an observer
 * callback that is slow or blocks holds up its own session only, whose queue then fills and counts
 * the overflow, while other sessions and the application go on. One thread per session rather
 * than MOOMS's one per queue: draining the urgent queue first at every step gives the priority
 * without a second thread per observer contending for the same observer (or, later, the same
 * connection); and rather than one thread for all sessions, because a shared thread makes every
 * observer as slow as the slowest. Observers are few (connections), so the thread count stays small.
 *
 * <p>The dispatcher sleeps until the next QoS deadline (a batch's flush time, a period's end) or
 * until a producer wakes it: for an urgent or immediate event, when a batch starts or fills, and
 * when a queue reaches half full or overflows. It is woken at most once per sleep: a producer
 * wakes it only if its CAS takes {@link #state} from SLEEPING to QUEUED (Dekker pairing: the
 * producer publishes its event then reads the state, the dispatcher sets SLEEPING then re-checks
 * the queues; the producers that come after the first, before the dispatcher runs, skip the wake).
 * And a burst wakes the sleeping sessions with one unpark on the application thread, not one per
 * session: the producer pushes the claimed session on the {@link WakeRelay} and unparks it only if
 * the relay was empty; the first dispatcher up unparks the others (see there why a stalled
 * observer cannot hold this up).
 *
 * <p>Deliveries of one pass go to the observer one after the other and {@link Observer#flush()}
 * follows at the end of the pass (and every {@value Observer#FLUSH_EVERY} deliveries): a network
 * observer sends everything the pass delivered in one write instead of one write per delivery.
 * Each delivery is still made as its QoS says (an immediate event alone, a batch of n); only the
 * socket writes are shared, and never delayed past the pass that made the delivery.
 *
 * <p>A session made with {@link #manual} has no thread: whoever owns it calls {@link #pump()}
 * (tests with an injected clock, or an endpoint that dispatches on its own thread).
 */
public final class ObserverEndpoint implements ObserverSession {
    private static final AtomicInteger SESSION_IDS = new AtomicInteger();
    private static final VarHandle STATE;
    /** One for all sessions of the JVM: correct whichever dispatcher empties it. */
    private static final WakeRelay RELAY = new WakeRelay();
    /** {@link #state}: running (or a manual session). */
    private static final int AWAKE = 0;
    /** {@link #state}: about to park or parked; a producer may claim it. */
    private static final int SLEEPING = 1;
    /** {@link #state}: claimed by a producer; on the relay, or about to be pushed there. */
    private static final int QUEUED = 2;
    /** {@link #state}: taken off the relay by some dispatcher, which unparks it. */
    private static final int POPPED = 3;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ObserverEndpoint.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int sessionId = SESSION_IDS.incrementAndGet();
    private final MibTree tree;
    private final LiveClock clock;
    private final Observer observer;
    private final EventQueue urgent;
    private final EventQueue regular;
    private final List<SessionSubscription> subscriptions = new CopyOnWriteArrayList<>();
    private final AtomicInteger nextSubscriptionId = new AtomicInteger();
    private final AtomicLong overflow = new AtomicLong();
    private final Consumer<ObserverEndpoint> onClose;
    private final EventQueue.Handler take = (e, tag) -> take(e, (SessionSubscription) tag);
    private volatile boolean closed;
    /** AWAKE, SLEEPING, QUEUED or POPPED; see {@link #awake()}. */
    private volatile int state = AWAKE;
    private volatile Thread thread;
    /** The next session on the {@link WakeRelay}; written by the pusher, read by the popper. */
    ObserverEndpoint relayNext;

    // ---- dispatcher thread only ----
    private long overflowReported;
    private long deliveries;
    /** Deliveries since the last {@link Observer#flush()}. */
    private int unflushed;
    private long observerFailures;

    private ObserverEndpoint(MibTree tree, Observer observer, int capacity, Consumer<ObserverEndpoint> onClose) {
        this.tree = tree;
        this.clock = tree.clock();
        this.observer = java.util.Objects.requireNonNull(observer, "observer");
        this.urgent = new EventQueue(capacity);
        this.regular = new EventQueue(capacity);
        this.onClose = onClose;
    }

    /** A session with its own dispatcher thread (daemon, "sonde-live-session-N"). */
    public static ObserverEndpoint start(MibTree tree, Observer observer, int capacity,
            Consumer<ObserverEndpoint> onClose) {
        ObserverEndpoint s = new ObserverEndpoint(tree, observer, capacity, onClose);
        Thread t = new Thread(s::run, "sonde-live-session-" + s.sessionId);
        t.setDaemon(true);
        s.thread = t;
        t.start();
        return s;
    }

    /** A session without a thread: the owner calls {@link #pump()}. */
    public static ObserverEndpoint manual(MibTree tree, Observer observer, int capacity,
            Consumer<ObserverEndpoint> onClose) {
        return new ObserverEndpoint(tree, observer, capacity, onClose);
    }

    // ---- the session API ----

    @Override
    public Subscription subscribe(String pattern, Set<EventKind> kinds, Qos qos) {
        if (closed) throw new IllegalStateException("session " + sessionId + " is closed");
        PathPattern p = PathPattern.parse(pattern);
        int mask = EventKind.mask(kinds);
        java.util.Objects.requireNonNull(qos, "qos");
        if (qos.mode() == Qos.Mode.BATCH && qos.batchSize() > urgent.capacity()) {
            throw new IllegalArgumentException("batch size " + qos.batchSize() + " exceeds the session's queue capacity "
                    + urgent.capacity());
        }
        SessionSubscription s = new SessionSubscription(this, nextSubscriptionId.incrementAndGet(), p, mask, qos,
                clock.nanos());
        subscriptions.add(s);
        tree.addTap(s);
        wake(); // a new deadline (period) for the dispatcher
        return s;
    }

    @Override
    public List<Subscription> subscriptions() {
        return Collections.unmodifiableList(new ArrayList<>(subscriptions));
    }

    @Override
    public long overflowCount() {
        return overflow.get();
    }

    @Override
    public int capacity() {
        return urgent.capacity();
    }

    void cancel(SessionSubscription s) {
        if (!subscriptions.remove(s)) return;
        tree.removeTap(s); // the last tap of a sensor closes its gate
        s.deactivate(); // queued and staged events of it are dropped by the dispatcher
        wake();
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        for (SessionSubscription s : subscriptions) cancel(s);
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
            if (t != Thread.currentThread()) {
                try {
                    t.join(1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        if (onClose != null) onClose.accept(this);
    }

    public boolean isClosed() {
        return closed;
    }

    /** Deliveries made (read after the dispatcher is quiet, e.g. in a manual session). */
    public long deliveries() {
        return deliveries;
    }

    /** Observer callbacks that threw (the session goes on). */
    public long observerFailures() {
        return observerFailures;
    }

    // ---- application threads ----

    /** Enqueues a reference to {@code e} for subscription {@code s}; never blocks. */
    void enqueue(LiveEvent e, SessionSubscription s) {
        EventQueue q = s.qos.isUrgent() ? urgent : regular;
        int size = q.offer(e, s);
        boolean wake;
        if (size < 0) {
            overflow.incrementAndGet();
            wake = true;
        } else {
            wake = s.wakeOnOffer() || size >= q.capacity() >> 1;
        }
        // only the producer that ends the sleep wakes it, and it pays the unpark (a futex call)
        // only if no other dispatcher of the burst is being woken already
        if (wake && state == SLEEPING && STATE.compareAndSet(this, SLEEPING, QUEUED) && RELAY.push(this)) wake();
    }

    /** The relay took this session off its stack on behalf of {@code by}'s dispatcher. */
    void popped(ObserverEndpoint by) {
        state = POPPED; // only this session's dispatcher moves it on from here
        if (by != this) wake();
    }

    private void wake() {
        Thread t = thread;
        if (t != null) LockSupport.unpark(t);
    }

    // ---- the dispatcher ----

    private void run() {
        while (!closed) {
            long next = pump();
            state = SLEEPING;
            try {
                if (!closed && urgent.isEmpty() && regular.isEmpty()) {
                    if (next == Long.MAX_VALUE) {
                        LockSupport.park(this);
                    } else {
                        long wait = next - clock.nanos();
                        if (wait > 0) LockSupport.parkNanos(this, wait);
                    }
                } else {
                    Thread.onSpinWait(); // a producer claimed a slot and is storing into it
                }
            } finally {
                awake();
            }
        }
    }

    /**
     * After a sleep, before any observer code: back to AWAKE. If a producer claimed this session
     * meanwhile (QUEUED), it is on the relay, maybe with others pushed after it that nobody
     * unparked: empty the relay first. A producer preempted between its claim and its push leaves
     * the session QUEUED and off the relay for a moment: yield until it has pushed and someone
     * (maybe this thread) popped it.
     */
    private void awake() {
        for (;;) {
            int s = state;
            if (s == SLEEPING) {
                if (STATE.compareAndSet(this, SLEEPING, AWAKE)) return;
            } else if (s == POPPED) {
                state = AWAKE;
                return;
            } else if (s == QUEUED) {
                RELAY.unparkAll(this);
                if (state == QUEUED) Thread.yield();
            } else {
                return; // AWAKE: woken without a sleep (closed)
            }
        }
    }

    /**
     * Delivers what is due now: all urgent events and due urgent deliveries first, then regular
     * events one at a time, re-checking the urgent queue between any two (so urgent events
     * overtake queued regular ones). Due batch and periodic deliveries go once the regular events
     * present at the start of a pass are taken (so a period's delivery holds what was queued
     * before it ended). Returns the next deadline ({@code Long.MAX_VALUE}: none).
     */
    public long pump() {
        int backlog = 0;
        for (;;) {
            if (closed) return Long.MAX_VALUE;
            reportOverflow();
            urgent.drain(take, Integer.MAX_VALUE);
            long now = clock.nanos();
            if (deliverDue(true, now, Integer.MAX_VALUE) > 0) continue;
            if (backlog == 0) backlog = regular.size();
            if (backlog > 0) {
                if (regular.drain(take, 1) == 0) break; // a producer is still storing: the caller comes back
                if (--backlog > 0) continue;
            }
            if (deliverDue(false, now, 1) > 0) continue;
            if (regular.isEmpty()) break;
        }
        if (unflushed > 0) flushObserver(); // everything this pass delivered, in one write
        long next = Long.MAX_VALUE;
        for (SessionSubscription s : subscriptions) next = Math.min(next, s.deadline);
        return next;
    }

    /** Dispatches one dequeued event by its subscription's QoS. */
    private void take(LiveEvent e, SessionSubscription s) {
        if (!s.isActive()) return;
        switch (s.qos.mode()) {
            case IMMEDIATE:
                deliver(s, List.of(e));
                return;
            case BATCH:
                if (s.qos.batchSize() == 1) { // a full batch at once: no staging list, no flush timer
                    s.delivered(1);
                    deliver(s, List.of(e));
                    return;
                }
                if (s.staged.isEmpty()) s.deadline = e.timeNanos() + s.qos.intervalNanos();
                s.staged.add(e);
                if (s.staged.size() >= s.qos.batchSize()) flush(s);
                return;
            case PERIODIC_LATEST:
                if (e.kind() == EventKind.VALUE_CHANGED) {
                    Integer at = s.latest.get(e.sourceId());
                    if (at != null) {
                        s.staged.set(at, e); // only the latest value per attribute
                        return;
                    }
                    if (stage(s, e)) s.latest.put(e.sourceId(), s.staged.size() - 1);
                    return;
                }
                stage(s, e);
                return;
            default:
                stage(s, e);
        }
    }

    /** Stages for a periodic delivery, bounded by the session's capacity (beyond: overflow). */
    private boolean stage(SessionSubscription s, LiveEvent e) {
        if (s.staged.size() >= urgent.capacity()) {
            overflow.incrementAndGet();
            return false;
        }
        s.staged.add(e);
        return true;
    }

    /** Delivers due batch and periodic deliveries of one priority, at most {@code max}; returns how many. */
    private int deliverDue(boolean ofUrgent, long now, int max) {
        int n = 0;
        for (SessionSubscription s : subscriptions) {
            if (n >= max) break;
            if (s.qos.isUrgent() != ofUrgent || s.deadline > now) continue;
            if (s.qos.mode() == Qos.Mode.BATCH) {
                if (!s.staged.isEmpty()) {
                    flush(s);
                    n++;
                }
            } else {
                long period = s.qos.intervalNanos();
                s.deadline += ((now - s.deadline) / period + 1) * period; // next period end on the grid
                if (!s.staged.isEmpty()) {
                    flush(s);
                    n++;
                }
            }
        }
        return n;
    }

    private void flush(SessionSubscription s) {
        List<LiveEvent> batch = s.staged;
        s.staged = new ArrayList<>();
        s.latest.clear();
        if (s.qos.mode() == Qos.Mode.BATCH) s.deadline = Long.MAX_VALUE;
        s.delivered(batch.size());
        deliver(s, Collections.unmodifiableList(batch));
    }

    private void deliver(SessionSubscription s, List<LiveEvent> events) {
        if (!s.isActive()) return;
        deliveries++;
        try {
            observer.onEvents(s, events);
        } catch (VirtualMachineError fatal) {
            throw fatal;
        } catch (Throwable t) {
            observerFailures++; // the observer's problem; the session goes on
        }
        if (++unflushed >= Observer.FLUSH_EVERY) flushObserver(); // a long pass still sends as it goes
    }

    private void flushObserver() {
        unflushed = 0;
        try {
            observer.flush();
        } catch (VirtualMachineError fatal) {
            throw fatal;
        } catch (Throwable t) {
            observerFailures++;
        }
    }

    private void reportOverflow() {
        long total = overflow.get();
        if (total == overflowReported) return;
        long lost = total - overflowReported;
        overflowReported = total;
        try {
            observer.onOverflow(lost, total);
        } catch (VirtualMachineError fatal) {
            throw fatal;
        } catch (Throwable t) {
            observerFailures++;
        }
    }

    @Override
    public String toString() {
        return "session " + sessionId + " (" + subscriptions.size() + " subscriptions)";
    }
}
