package io.sonde.collector.collect;

import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerConfig;

/** Test handler {@code test-slow}: sleeps {@code test-slow.millis} (default 50) per frame. */
public final class SlowHandler implements DataHandler {
    private long millis;

    @Override
    public String name() {
        return "test-slow";
    }

    @Override
    public void open(HandlerConfig config) {
        millis = config.intOption("test-slow.millis", 50);
    }

    @Override
    public void handle(Envelope e) throws InterruptedException {
        Thread.sleep(millis);
    }

    @Override
    public void close() {}
}
