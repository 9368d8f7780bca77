package io.sonde.collector.operations;

import io.sonde.collector.database.ExecutionPairing;
import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.envelope.StreamInfo;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerConfig;
import io.sonde.format.Format;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code live-operations} handler that {@code sonde collector --http} adds: pairs ENTER and
 * EXIT per thread with the same {@link ExecutionPairing} as the {@code metrics} and {@code database}
 * handlers and counts each execution in an {@link OperationWindow} under its agent, operation and
 * the second it ended. Queued, on its own bounded queue: when the dashboard or this handler is slow,
 * it drops frames itself (its handler status counts them) and ingest never waits; calls open across
 * a dropped frame are then not timed.
 */
public final class LiveOperationsHandler implements DataHandler {
    public static final String NAME = "live-operations";
    /** Seconds kept: the longest live range the page offers (15 minutes). */
    public static final int DEFAULT_SECONDS = 900;
    /** Agent/operation rows kept; beyond, {@link OperationWindow#OTHER}. */
    public static final int DEFAULT_MAX_ROWS = 200;
    /** Seconds a second stays open for executions that arrive late (an agent's frames are flushed at least every second). */
    public static final int DEFAULT_OPEN_SECONDS = 5;

    private final OperationWindow window;
    private final Map<StreamInfo, ExecutionPairing> streams = new HashMap<>(); // handler thread only

    public LiveOperationsHandler() {
        this(new OperationWindow(DEFAULT_SECONDS, DEFAULT_MAX_ROWS, DEFAULT_OPEN_SECONDS));
    }

    public LiveOperationsHandler(OperationWindow window) {
        this.window = window;
    }

    /** The aggregates, to be read by the dashboard (any thread). */
    public OperationWindow window() {
        return window;
    }

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
        streams.put(stream, new ExecutionPairing());
    }

    @Override
    public void handle(Envelope e) {
        ExecutionPairing pairing = streams.get(e.stream());
        if (pairing == null) return; // cannot happen: stream events are never dropped
        pairing.follow(e.index());
        if (!Format.holdsRecords(e.type())) return;
        String agent = e.agentId().toString();
        pairing.frame(e.decode(), (operation, start, duration, error) -> window.add(agent, operation, start + duration, duration, error));
    }

    @Override
    public void streamEnded(StreamInfo stream, boolean clean) {
        streams.remove(stream);
    }

    @Override
    public void close() {}
}
