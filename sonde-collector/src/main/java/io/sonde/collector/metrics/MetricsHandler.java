package io.sonde.collector.metrics;

import io.sonde.core.prometheus.OperationStats;

import io.sonde.collector.database.ExecutionPairing;
import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.envelope.StreamInfo;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerConfig;
import io.sonde.format.Format;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * The {@code metrics} handler: decodes DATA frames, pairs ENTER and EXIT per thread with the same
 * {@link ExecutionPairing} as the {@code database} handler, and keeps per agent and operation the
 * calls, errors and a latency histogram in memory ({@link OperationStats}) for
 * {@code GET /metrics}. Queued: if its queue overflows, the frames it did not get are missing from
 * its counts (the handler's own drop counter, also exported, says how many) and calls open across
 * them are not timed.
 */
public final class MetricsHandler implements DataHandler {
    public static final String NAME = "metrics";

    /** Agent and operation: the labels of one series. */
    public record Key(UUID agent, String operation) {}

    private final Map<Key, OperationStats> operations = new ConcurrentHashMap<>();
    private final Map<StreamInfo, StreamState> streams = new HashMap<>(); // handler thread only
    private final AtomicLong unpaired = new AtomicLong();

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
    public void streamStarted(StreamInfo stream) {
        streams.put(stream, new StreamState());
    }

    @Override
    public void handle(Envelope e) {
        StreamState s = streams.get(e.stream());
        if (s == null) {
            return; // cannot happen: stream events are never dropped
        }
        s.pairing.follow(e.index());
        if (!Format.holdsRecords(e.type())) {
            return;
        }
        UUID agent = e.agentId();
        s.pairing.frame(e.decode(), (operation, start, duration, error) ->
                operations.computeIfAbsent(new Key(agent, operation), k -> new OperationStats()).add(duration, error));
        account(s);
    }

    @Override
    public void streamEnded(StreamInfo stream, boolean clean) {
        StreamState s = streams.remove(stream);
        if (s != null) {
            s.pairing.reset(); // calls still open will never end on this connection
            account(s);
        }
    }

    private void account(StreamState s) {
        long now = s.pairing.unpaired();
        unpaired.addAndGet(now - s.unpairedSeen);
        s.unpairedSeen = now;
    }

    @Override
    public void close() {}

    /** Calls {@code each} with every series' labels and a consistent copy of its counters (any thread). */
    public void forEachOperation(BiConsumer<Key, OperationStats.Snapshot> each) {
        operations.forEach((k, v) -> each.accept(k, v.snapshot()));
    }

    /** ENTER and EXIT records that could not be paired so far (lost exits, GAPs, calls open at a disconnect). */
    public long unpairedRecords() {
        return unpaired.get();
    }

    private static final class StreamState {
        final ExecutionPairing pairing = new ExecutionPairing();
        long unpairedSeen;
    }
}
