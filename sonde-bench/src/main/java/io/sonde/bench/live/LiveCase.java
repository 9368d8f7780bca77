package io.sonde.bench.live;

import io.sonde.api.live.EventKind;
import io.sonde.api.live.LongSensor;
import io.sonde.api.live.MonitoredObject;
import io.sonde.api.live.Qos;
import io.sonde.core.live.LiveRuntime;
import io.sonde.core.live.mib.LiveClock;
import io.sonde.core.live.session.ObserverEndpoint;
import java.util.EnumSet;

/**
 * One measured operation of the live-cost benchmark. Every case runs through the same
 * (megamorphic, so never inlined) call in {@link LiveCostBenchmark}'s loop: the call's own cost
 * is in every figure alike, and the JIT can neither sink a store out of the loop nor drop it, so
 * differences between cases are differences of the operations.
 *
 * <p>Cases with a subscriber use a session without a dispatcher thread, pumped by the
 * measuring thread every {@value #PUMP_EVERY} operations (well inside the queue), so no event
 * is dropped and {@link #check()} fails the run if one went missing.
 */
abstract class LiveCase {
    /** Operations between two pumps of a manual session. */
    static final int PUMP_EVERY = 64;
    /** Queue capacity of the benchmark's sessions. */
    private static final int CAPACITY = 4096;

    /** The name in the table and the JSON. */
    abstract String name();

    /** What the operation is, for the table's legend. */
    abstract String description();

    /** One operation; {@code i} counts up from 0 over the whole run. */
    abstract void op(long i);

    /** After the run: throws if the operation did not do what it claims. */
    void check() {}

    /** Closes sessions. */
    void close() {}

    /** A fresh tree without probes (no sampling thread adds noise). */
    static LiveRuntime tree() {
        return LiveRuntime.bare(LiveClock.system());
    }

    /** Baseline: a plain field write of the counter. */
    static final class FieldWrite extends LiveCase {
        long field;

        @Override
        String name() {
            return "field-write";
        }

        @Override
        String description() {
            return "a plain field write (the baseline of sensor-idle)";
        }

        @Override
        void op(long i) {
            field = i;
        }
    }

    /** {@code LongSensor.set} with nobody subscribed: the gate. */
    static final class SensorIdle extends LiveCase {
        private final LongSensor sensor = tree().object("bench/idle", "Bench").longSensor("value", "", "never subscribed");

        @Override
        String name() {
            return "sensor-idle";
        }

        @Override
        String description() {
            return "LongSensor.set, no subscriber (gate closed)";
        }

        @Override
        void op(long i) {
            sensor.set(i);
        }

        @Override
        void check() {
            if (sensor.get() == 0) throw new IllegalStateException("sensor-idle: the value was never stored");
        }
    }

    /** Counts what a manual session delivered, and pumps it. */
    abstract static class Observed extends LiveCase {
        final LiveRuntime live = tree();
        ObserverEndpoint session;
        long delivered;
        long expected;

        final void open(String pattern, EnumSet<EventKind> kinds) {
            session = live.openManualSession((sub, events) -> delivered += events.size(), CAPACITY);
            session.subscribe(pattern, kinds, Qos.immediate());
        }

        final void pumpSometimes(long i) {
            if ((i & (PUMP_EVERY - 1)) == PUMP_EVERY - 1) session.pump();
        }

        @Override
        void check() {
            session.pump();
            if (session.overflowCount() != 0 || delivered != expected) {
                throw new IllegalStateException(name() + ": " + delivered + " events delivered of " + expected + ", "
                        + session.overflowCount() + " lost");
            }
        }

        @Override
        void close() {
            session.close();
        }
    }

    /** {@code LongSensor.set} of a new value with one subscriber (QoS immediate). */
    static final class SensorActive extends Observed {
        private final LongSensor sensor = live.object("bench/active", "Bench").longSensor("value", "", "one subscriber");

        SensorActive() {
            open("bench/active/value", EnumSet.of(EventKind.VALUE_CHANGED));
        }

        @Override
        String name() {
            return "sensor-active";
        }

        @Override
        String description() {
            return "LongSensor.set, one subscriber: event + enqueue (+ amortized delivery)";
        }

        @Override
        void op(long i) {
            sensor.set(i + 1); // +1: the first set must be a change from the initial 0
            expected++;
            pumpSometimes(i);
        }
    }

    /**
     * A request mirrored as a monitored object: {@code bench/requests/req} created with
     * {@code k} sensors (long, string, double, in turn), each written once when {@code write},
     * then deleted.
     */
    static final class Request extends Observed {
        private final MonitoredObject parent = live.object("bench/requests", "Requests");
        private final int k;
        private final boolean write;
        private final boolean observed;
        private final String[] names;
        /** Events one request generates for the subscriber. */
        private final int eventsPerOp;

        Request(int k, boolean write, boolean observed) {
            this.k = k;
            this.write = write;
            this.observed = observed;
            this.names = new String[k];
            for (int a = 0; a < k; a++) names[a] = "a" + a;
            // CHILD_ADDED + CHILD_REMOVED at the parent, OBJECT_DELETED of the child, a value change per written sensor
            this.eventsPerOp = 3 + (write ? k : 0);
            if (observed) open("bench/**", EnumSet.allOf(EventKind.class));
        }

        @Override
        String name() {
            return (write ? "request-" : "create-delete-") + k + (observed ? "-observed" : "");
        }

        @Override
        String description() {
            return "createChild with " + k + " sensor(s)" + (write ? ", each set once," : "") + " then delete()"
                    + (observed ? "; one subscriber to every event under bench/**" : "; nobody subscribed");
        }

        @Override
        void op(long i) {
            MonitoredObject o = parent.createChild("req", "Request");
            for (int a = 0; a < k; a++) {
                switch (a % 3) {
                    case 0:
                        LongSensor l = o.longSensor(names[a], "", "");
                        if (write) l.set(i + 1);
                        break;
                    case 1:
                        io.sonde.api.live.StringSensor s = o.stringSensor(names[a], "", "");
                        if (write) s.set("open");
                        break;
                    default:
                        io.sonde.api.live.DoubleSensor d = o.doubleSensor(names[a], "ms", "");
                        if (write) d.set(1.5);
                        break;
                }
            }
            o.delete();
            if (observed) {
                expected += eventsPerOp;
                pumpSometimes(i);
            }
        }

        @Override
        void check() {
            if (parent.child("req").isPresent()) throw new IllegalStateException(name() + ": the request object is still there");
            if (observed) super.check();
        }

        @Override
        void close() {
            if (observed) super.close();
        }
    }
}
