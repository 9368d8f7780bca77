package io.sonde.sim.model;

import io.sonde.sim.blocks.SimThread;
import io.sonde.sim.engine.Simulation;
import java.util.ArrayDeque;
import java.util.Set;

/**
 * Thread pool (thesis 4.3.4): receivers put requests, under the queue's Java monitor, into a FIFO
 * queue served by a fixed pool of dispatcher threads.
 */
final class ThreadPoolServer extends DispatchingServer {
    /** The pool queue and the dispatcher's times. */
    static final Set<String> MEASURES = Set.of("dispatcher_queue_ms", "dispatcher_holding_ms", "dispatcher_phase1_ms");

    private final ArrayDeque<SimThread> idleDispatchers = new ArrayDeque<>();
    private final ArrayDeque<Req> poolQueue = new ArrayDeque<>();
    /** Whether a receiver holds the queue's monitor (between its notify and leaving the monitor). */
    private boolean poolMonitorHeld;
    private final ArrayDeque<SimThread> monitorWaiters = new ArrayDeque<>();
    private final ArrayDeque<Req> monitorWaiterRequests = new ArrayDeque<>();

    ThreadPoolServer(Simulation sim, MiddlewareConfig cfg) {
        super(sim, cfg);
        for (int i = 0; i < cfg.poolSize(); i++) {
            idleDispatchers.add(SimThread.driven(machine, "dispatcher-" + i, null));
        }
    }

    @Override
    void receive(Receiver rcv, Req r) {
        rcv.w.compute(p.bRec() + p.bEnqueue(), () -> enqueue(rcv, r));
    }

    /** Puts the request in the pool queue under its monitor (or hands it to an idle dispatcher). */
    private void enqueue(Receiver rcv, Req r) {
        r.handedOn = sim.now();
        poolMonitorHeld = true;
        SimThread d = idleDispatchers.poll();
        if (d != null) {
            d.wake(monitorWakeCost(p.monitorWake()), () -> dispatcherWoken(d, r));
        } else {
            poolQueue.add(r);
        }
        // The notify returns; if the woken dispatcher has a higher goodness it has run
        // meanwhile (and found the monitor still held).
        rcv.w.compute(SimThread.MIN_BURST, () -> {
            recvPhase1.add(sim.now() - r.recvStart);
            poolMonitorHeld = false;
            while (!monitorWaiters.isEmpty()) {
                SimThread mw = monitorWaiters.poll();
                Req mr = monitorWaiterRequests.poll();
                mw.wake(monitorWakeCost(p.monitorReacquire()), () -> dispatch(mw, mr));
            }
            rcv.phase2(r);
        });
    }

    private void dispatcherWoken(SimThread d, Req r) {
        if (!poolMonitorHeld) {
            dispatch(d, r);
            return;
        }
        // Woken by notify() while the receiver still holds the queue monitor: the wait() must
        // re-acquire it, fails, and blocks until the receiver leaves the monitor.
        d.compute(p.monitorRetry(), () -> {
            if (!poolMonitorHeld) {
                dispatch(d, r);
            } else {
                monitorWaiters.add(d);
                monitorWaiterRequests.add(r);
                d.block();
            }
        });
    }

    @Override
    void dispatchStarted(Req r, double start) {
        dispQueue.add(start - r.handedOn);
    }

    /**
     * The pool dispatcher's extra work is sending the reply on a connection owned by a receiver
     * thread; it needs the connection's monitor (held by the receiver while busy).
     */
    @Override
    double replyCost() {
        return p.bReply() + p.bPoolReply();
    }

    @Override
    void afterReply(SimThread d, double start) {
        d.compute(p.dispatcherPhase2(), () -> {
            dispHold.add(sim.now() - start);
            Req next = poolQueue.poll();
            if (next != null) {
                dispatch(d, next);
            } else {
                idleDispatchers.add(d);
                d.block();
            }
        });
    }
}
