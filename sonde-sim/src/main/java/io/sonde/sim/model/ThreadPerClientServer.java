package io.sonde.sim.model;

import io.sonde.sim.engine.Simulation;
import java.util.Set;

/** Thread-per-client (thesis 4.3.1): the connection's receiver thread dispatches the request itself. */
final class ThreadPerClientServer extends OrbServer {
    /** No strategy-specific measures. */
    static final Set<String> MEASURES = Set.of();

    ThreadPerClientServer(Simulation sim, MiddlewareConfig cfg) {
        super(sim, cfg);
    }

    @Override
    void receive(Receiver rcv, Req r) {
        rcv.w.compute(p.bRec() + p.bDisp() + p.bUnm(), () -> servant(rcv.w, () -> rcv.finishInline(r)));
    }
}
