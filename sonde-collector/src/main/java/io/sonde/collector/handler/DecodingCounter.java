package io.sonde.collector.handler;

import io.sonde.collector.envelope.Envelope;
import io.sonde.format.Format;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code decode-count} handler: decodes every DATA frame and counts its data records and the
 * frames that turned out corrupt inside. It stores nothing; it measures what decoding costs the
 * collector (the ingest benchmark) and checks that envelopes decode.
 */
public final class DecodingCounter implements DataHandler {
    public static final String NAME = "decode-count";

    private final AtomicLong records = new AtomicLong();
    private final AtomicLong frames = new AtomicLong();
    private final AtomicLong corrupt = new AtomicLong();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean decodes() {
        return true;
    }

    @Override
    public void open(HandlerConfig config) {}

    @Override
    public void handle(Envelope e) {
        frames.incrementAndGet();
        if (Format.holdsRecords(e.type())) {
            var d = e.decode();
            records.addAndGet(d.dataRecords());
            if (d.problem() != null) {
                corrupt.incrementAndGet();
            }
        }
    }

    @Override
    public void close() {}

    /** Data records decoded so far. */
    public long records() {
        return records.get();
    }

    /** Frames handled so far. */
    public long frames() {
        return frames.get();
    }

    /** DATA frames whose records did not decode to the end. */
    public long corruptFrames() {
        return corrupt.get();
    }
}
