package io.sonde.collector.envelope;

import io.sonde.format.read.RecordCursor;
import java.util.ArrayDeque;

/**
 * Decodes the envelopes of one stream on demand, from any handler thread, with one cursor whose
 * registry follows the stream. Records can only be resolved against the definitions sent before
 * them, so before decoding an envelope the decoder applies every earlier definition-carrying
 * envelope of the stream not yet decoded (the ingest thread lists those as they arrive; finding
 * them costs one 8-byte read per frame, nothing is decoded there). Frames without definitions do
 * not change the registry, so they may be decoded in any order, or never.
 *
 * <p>Memory: the list holds definition frames only until some handler decodes a later frame. If no
 * handler gets to them (every decoding handler's queue full), beyond {@link #MAX_PENDING} the
 * ingest thread applies the oldest itself, so the list stays bounded.
 */
final class StreamDecoder {
    /** Definition frames waiting for a decoding handler before the ingest thread applies them itself. */
    static final int MAX_PENDING = 256;

    private final String source;
    private final RecordCursor cursor = new RecordCursor();
    private final ArrayDeque<Envelope> pending = new ArrayDeque<>();

    StreamDecoder(String source) {
        this.source = source;
    }

    /** Ingest thread: a frame carrying definitions arrived. */
    synchronized void definitionsArrived(Envelope e) {
        pending.addLast(e);
        if (pending.size() > MAX_PENDING) {
            Envelope oldest = pending.pollFirst();
            if (oldest.cached() == null) {
                oldest.cache(oldest.decodeWith(cursor, source));
            }
        }
    }

    synchronized DecodedFrame decode(Envelope e) {
        DecodedFrame d = e.cached();
        if (d != null) {
            return d;
        }
        while (!pending.isEmpty() && pending.peekFirst().index() <= e.index()) {
            Envelope earlier = pending.pollFirst();
            if (earlier.cached() == null) {
                earlier.cache(earlier.decodeWith(cursor, source));
            }
        }
        d = e.cached();
        if (d == null) {
            d = e.decodeWith(cursor, source);
            e.cache(d);
        }
        return d;
    }
}
