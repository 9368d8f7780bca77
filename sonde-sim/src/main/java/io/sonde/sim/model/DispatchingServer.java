package io.sonde.sim.model;

import io.sonde.sim.blocks.SimThread;
import io.sonde.sim.engine.Simulation;

/**
 * A strategy whose receivers hand requests to dispatcher threads (thread-per-request, thread
 * pool): the dispatcher's part of a request is the same, only what happens around it differs.
 */
abstract class DispatchingServer extends OrbServer {

    DispatchingServer(Simulation sim, MiddlewareConfig cfg) {
        super(sim, cfg);
    }

    /** Dispatcher {@code d} has started on {@code r} at {@code start}: record what the strategy measures. */
    void dispatchStarted(Req r, double start) {
    }

    /** CPU (ms) sending the reply costs the dispatcher. */
    double replyCost() {
        return p.bReply();
    }

    /** The reply is sent: the dispatcher's 2nd phase; record its holding time since {@code start}. */
    abstract void afterReply(SimThread d, double start);

    /** Dispatcher {@code d} works on {@code r}: dispatch, servant, marshal, reply. */
    final void dispatch(SimThread d, Req r) {
        double start = sim.now();
        dispatchStarted(r, start);
        double replyCost = replyCost();
        Receiver conn = receivers[r.connection];
        d.compute(p.bDisp() + p.bUnm(), () -> servant(d, () -> d.compute(p.bMar(), () -> conn.whenIdle(d,
                () -> d.compute(replyCost, () -> {
                    dispPhase1.add(sim.now() - start);
                    replySent(r);
                    afterReply(d, start);
                })))));
    }
}
