package io.sonde.bench.packing;

import io.sonde.collector.envelope.DecodedFrame;
import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerConfig;
import io.sonde.format.Format;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The study's receiving end inside the real collector: a lossless handler (it runs on the
 * connection's thread, so nothing is dropped and a slow receiver slows the sender through TCP)
 * that decodes every DATA frame, counts its EVENT records and bytes, and, while measuring, takes
 * each event's latency: receipt time minus the event's own time stamp. Sender and receiver run in
 * one JVM, so both times are the same {@link System#nanoTime()} clock.
 */
final class ReceivingHandler implements DataHandler {
    final AtomicLong events = new AtomicLong();
    final AtomicLong frames = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    private volatile LatencyHistogram latencies;

    @Override
    public String name() {
        return "packing-study";
    }

    @Override
    public boolean lossless() {
        return true;
    }

    @Override
    public boolean decodes() {
        return true;
    }

    @Override
    public void open(HandlerConfig config) {}

    /** From now on latencies go into {@code h} (null: stop taking them). */
    void measureInto(LatencyHistogram h) {
        latencies = h;
    }

    @Override
    public void handle(Envelope e) {
        if (!Format.holdsRecords(e.type())) return;
        long now = System.nanoTime();
        DecodedFrame d = e.decode();
        if (d.problem() != null) throw new IllegalStateException("a frame did not decode: " + d.problem());
        LatencyHistogram h = latencies;
        long n = 0;
        for (int i = 0; i < d.count(); i++) {
            if (d.type(i) != Format.EVENT) continue;
            n++;
            if (h != null) h.record(now - d.time(i));
        }
        if (n > 0) frames.incrementAndGet();
        events.addAndGet(n);
        bytes.addAndGet(e.length());
    }

    @Override
    public void close() {}
}
