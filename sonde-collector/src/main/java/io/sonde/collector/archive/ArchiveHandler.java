package io.sonde.collector.archive;

import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.envelope.StreamInfo;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerConfig;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The archive as a data handler ({@code archive}): the segment files of {@link Archive}, byte for
 * byte what {@code sonde receive} writes, readable by {@code sonde analyze} and {@code sonde dump}.
 * Lossless: it runs on each connection's thread, writing the frame before any queued handler
 * sees it; a slow disk therefore slows the connections writing to it (TCP back-pressure on those
 * agents) and a failing write fails that connection, as in {@code sonde receive}.
 */
public final class ArchiveHandler implements DataHandler {
    public static final String NAME = "archive";

    private Archive archive;
    private final Map<StreamInfo, FrameHandler.StreamSink> sinks = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean lossless() {
        return true;
    }

    @Override
    public void open(HandlerConfig config) throws Exception {
        archive = new Archive(config.out());
    }

    @Override
    public void streamStarted(StreamInfo stream) throws Exception {
        FrameHandler.StreamSink sink = archive.open(stream.agentId(), stream.streamHeader(), stream.peer());
        sinks.put(stream, sink);
        stream.segment(sink.target());
    }

    @Override
    public void handle(Envelope e) throws Exception {
        FrameHandler.StreamSink sink = sinks.get(e.stream());
        if (sink == null) {
            throw new IllegalStateException("frame of " + e.stream() + " before its stream was opened");
        }
        sink.frame(e.array(), e.length());
    }

    @Override
    public void force(StreamInfo stream) throws Exception {
        FrameHandler.StreamSink sink = sinks.get(stream);
        if (sink != null) {
            sink.force();
        }
    }

    @Override
    public void streamEnded(StreamInfo stream, boolean clean) throws Exception {
        FrameHandler.StreamSink sink = sinks.remove(stream);
        if (sink == null) {
            return;
        }
        if (clean) {
            sink.close();
        } else {
            sink.abort();
        }
    }

    @Override
    public void close() {
        sinks.values().forEach(FrameHandler.StreamSink::abort); // none left after an orderly stop
        sinks.clear();
    }
}
