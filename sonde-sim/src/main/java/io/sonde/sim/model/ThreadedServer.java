package io.sonde.sim.model;

import io.sonde.sim.blocks.Mutex;
import io.sonde.sim.blocks.SimThread;
import io.sonde.sim.engine.Simulation;
import java.util.Set;

/**
 * Threaded (thesis 4.3.2): like thread-per-client, but an ORB-wide mutex (a Java monitor)
 * serialises dispatching and the servant.
 */
final class ThreadedServer extends OrbServer {
    /** The ORB mutex's contention. */
    static final Set<String> MEASURES = Set.of("mutex_contention_ms");

    private final Mutex orbMutex;

    ThreadedServer(Simulation sim, MiddlewareConfig cfg) {
        super(sim, cfg);
        orbMutex = new Mutex(sim, "orb").wakeCost(() -> monitorWakeCost(p.monitorWake())).recordContention(mutexWait);
    }

    @Override
    void receive(Receiver rcv, Req r) {
        SimThread w = rcv.w;
        w.compute(p.bRec(), () -> orbMutex.lock(w, () -> w.compute(p.bDisp() + p.bUnm(),
                () -> servant(w, () -> orbUnlock(w, () -> rcv.finishInline(r))))));
    }

    private void orbUnlock(SimThread w, Runnable then) {
        int stillWaiting = orbMutex.unlock(w);
        // Releasing a contended Java monitor wakes the waiters, which find it taken again: the
        // CPU this costs grows with the number of waiters (thesis 4.5: 1.8 ms per request with 2
        // clients, 5.4 ms with 64).
        w.compute(stillWaiting * p.orbMutexWaiter(), then);
    }
}
