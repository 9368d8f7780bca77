package io.sonde.bench.mooms;

import io.sonde.api.live.LiveTree;
import io.sonde.api.live.LongSensor;
import io.sonde.api.live.MonitoredObject;

/**
 * The server instrumented with Sonde's live layer: the attribute is a {@link LongSensor} of the
 * object {@code mooms/server}, and each request creates the child {@code mooms/server/childFOO1} in
 * the tree and deletes it (MOOMS's {@code CreateAndDestroyMO}). With a subscription to value changes,
 * child added and child removed this is three events per request, as in MOOMS (whose deletion
 * events were suppressed: subscribers here leave OBJECT_DELETED out, so its gate stays closed).
 */
final class SondeWorkload extends Workload {
    /** The object observers subscribe under. */
    static final String PATTERN = "mooms/**";

    private final MonitoredObject server;
    private final LongSensor attribute;

    SondeWorkload(LiveTree live, int work) {
        super(work);
        this.server = live.object("mooms/server", "MoomsServer");
        this.attribute = server.longSensor("attribute", "", "the attribute each request updates");
    }

    @Override
    String name() {
        return "sonde";
    }

    @Override
    void update(long value) {
        attribute.set(value);
        Foo foo = new Foo(value);
        MonitoredObject child = server.createChild("childFOO1", "Foo");
        foo.monitored = child;
        child.delete();
    }
}
