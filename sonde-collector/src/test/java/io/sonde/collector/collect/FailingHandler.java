package io.sonde.collector.collect;

import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.envelope.StreamInfo;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerConfig;

/** Test handler {@code test-failing}: throws on every frame, at every stream start and at close (and at open if {@code test-failing.open=fail}). */
public final class FailingHandler implements DataHandler {
    @Override
    public String name() {
        return "test-failing";
    }

    @Override
    public void open(HandlerConfig config) {
        if ("fail".equals(config.option("test-failing.open", ""))) {
            throw new IllegalStateException("test handler refuses to open");
        }
    }

    @Override
    public void streamStarted(StreamInfo stream) {
        throw new IllegalStateException("test handler fails at stream start");
    }

    @Override
    public void handle(Envelope e) {
        throw new IllegalStateException("test handler fails on frame " + e.index());
    }

    @Override
    public void close() {
        throw new IllegalStateException("test handler fails at close");
    }
}
