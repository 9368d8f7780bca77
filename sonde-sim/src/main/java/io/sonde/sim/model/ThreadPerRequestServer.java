package io.sonde.sim.model;

import io.sonde.sim.blocks.SimThread;
import io.sonde.sim.engine.Simulation;
import java.util.Set;

/**
 * Thread-per-request (thesis 4.3.3): the receiver creates a dispatcher thread per request, waits
 * until it is set up, starts it and goes on; the dispatcher dies after the reply.
 */
final class ThreadPerRequestServer extends DispatchingServer {
    /** The dispatcher's times and the hand-over to it. */
    static final Set<String> MEASURES = Set.of("dispatcher_holding_ms", "dispatcher_phase1_ms", "handover_ms");

    ThreadPerRequestServer(Simulation sim, MiddlewareConfig cfg) {
        super(sim, cfg);
    }

    @Override
    Receiver newReceiver(SimThread w) {
        return new Creator(w);
    }

    @Override
    void receive(Receiver rcv, Req r) {
        Creator c = (Creator) rcv;
        c.w.compute(p.bRec(), () -> c.createDispatcher(r));
    }

    @Override
    void afterReply(SimThread d, double start) {
        d.compute(p.bTk(), () -> {
            dispHold.add(sim.now() - start);
            d.terminate();
        });
    }

    /** A receiver with its hand-shake with the dispatcher it creates. */
    private final class Creator extends Receiver {
        private boolean childReady;
        private boolean waitingForChild;
        private SimThread child;
        private Req childRequest;

        Creator(SimThread w) {
            super(w);
        }

        /** Creates a dispatcher thread, waits until it is set up, then starts it. */
        void createDispatcher(Req r) {
            r.handedOn = sim.now();
            w.compute(p.bTcParent(), () -> {
                SimThread d = SimThread.driven(machine, "dispatcher", w);
                child = d;
                childRequest = r;
                childReady = false;
                d.compute(p.bTcChild(), () -> {
                    // set-up done: tell the creator and suspend until started
                    childReady = true;
                    d.block();
                    if (waitingForChild) {
                        waitingForChild = false;
                        w.wake(monitorWakeCost(p.monitorWake()), this::startChild);
                    }
                });
                if (childReady) {
                    startChild();
                } else {
                    waitingForChild = true;
                    w.block();
                }
            });
        }

        private void startChild() {
            SimThread d = child;
            Req r = childRequest;
            child = null;
            childRequest = null;
            w.compute(p.bThreadStart(), () -> {
                d.wake(monitorWakeCost(p.monitorWake()), () -> {
                    handover.add(sim.now() - r.handedOn);
                    dispatch(d, r);
                });
                recvPhase1.add(sim.now() - r.recvStart);
                phase2(r);
            });
        }
    }
}
