package io.sonde.collector.envelope;

import io.sonde.format.Format;
import io.sonde.format.read.FormatException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.UUID;

/**
 * One received frame, as the flat-rate envelope of the OASIS data collector: the frame's bytes,
 * already checked (magic, length, CRC) but not decoded, with the node header data of its stream
 * ({@link #stream()}: agent id, host, pid) and of the frame itself (sequence number, times). The
 * header fields are read from fixed offsets on demand; the records are decoded only when a
 * handler calls {@link #decode()}, once, and the result is cached for every other handler.
 *
 * <p>Immutable apart from that cache, and safe to share between handler threads. An envelope given
 * to a lossless (inline) handler may wrap the connection's own buffer; such a handler must not keep
 * it after {@code handle} returns (queued handlers always get a private copy).
 */
public final class Envelope {
    private static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final StreamInfo stream;
    private final long index;
    private final byte[] bytes;
    private final int length;
    private final boolean definitions;
    private volatile DecodedFrame decoded;

    /**
     * Wraps frame bytes [0, length) of a stream; not copied. When the stream is decodable the
     * bytes must be the envelope's own (they are read when a handler decodes, later).
     *
     * @param index position of the frame in its stream (0 = first frame of the connection)
     */
    public Envelope(StreamInfo stream, long index, byte[] bytes, int length) {
        this.stream = stream;
        this.index = index;
        this.bytes = bytes;
        this.length = length;
        this.definitions = carriesDefinitions(bytes, length);
        StreamDecoder d = stream.decoder();
        if (d != null && definitions) {
            d.definitionsArrived(this);
        }
    }

    /**
     * The first block of a DATA frame is the registry block (thread 0) when the frame defines
     * something. A COMPRESSED frame (2.4) never carries definitions: writers leave those frames
     * uncompressed (docs/format.md section 4.4), so this stays one 8-byte read.
     */
    private static boolean carriesDefinitions(byte[] b, int length) {
        if (length < Format.FRAME_FIXED_HEADER_BYTES || b[Format.FRAME_OFF_TYPE] != Format.FRAME_DATA) {
            return false;
        }
        int payload = (short) I16.get(b, Format.FRAME_OFF_HEADER_LENGTH) & 0xFFFF;
        return payload + 12 <= length && (long) I64.get(b, payload) == 0L;
    }

    public StreamInfo stream() {
        return stream;
    }

    public UUID agentId() {
        return stream.agentId();
    }

    public String host() {
        return stream.host();
    }

    public long pid() {
        return stream.pid();
    }

    /** Position of this frame in its connection's stream, from 0. */
    public long index() {
        return index;
    }

    /**
     * Frame type: {@link Format#FRAME_DATA}, {@link Format#FRAME_COMPRESSED} (a DATA frame whose
     * payload is compressed; decoding expands it), {@link Format#FRAME_TRAILER}, {@link Format#FRAME_SEGMENT_END}.
     * {@link Format#holdsRecords} tells the ones with records.
     */
    public byte type() {
        return bytes[Format.FRAME_OFF_TYPE];
    }

    /** The agent's frame sequence number. */
    public long sequence() {
        return (long) I64.get(bytes, Format.FRAME_OFF_SEQUENCE);
    }

    /** Wall-clock time of the frame's making, ns since the epoch. */
    public long wallNanos() {
        return (long) I64.get(bytes, Format.FRAME_OFF_WALL_NANOS);
    }

    /** The agent's monotonic clock at the same instant. */
    public long monoNanos() {
        return (long) I64.get(bytes, Format.FRAME_OFF_MONO_NANOS);
    }

    /** Frame length in bytes, header included. */
    public int length() {
        return length;
    }

    /** The frame bytes, read-only. */
    public ByteBuffer bytes() {
        return ByteBuffer.wrap(bytes, 0, length).asReadOnlyBuffer();
    }

    /** For the archive: the backing array, bytes [0, length) being the frame; do not modify. */
    public byte[] array() {
        return bytes;
    }

    /** True if the frame carries a registry block (definitions). */
    public boolean carriesDefinitions() {
        return definitions;
    }

    /** True once some handler decoded the frame. */
    public boolean isDecoded() {
        return decoded != null;
    }

    /**
     * The frame's records, decoded on first call (by whichever handler asks first) and cached. The
     * definitions of the earlier frames of the stream are applied first, in stream order, so ids
     * resolve as a reader of the whole stream would resolve them.
     *
     * @throws IllegalStateException if the collector runs no decoding handler (nothing tracks definitions)
     */
    public DecodedFrame decode() {
        DecodedFrame d = decoded;
        if (d != null) {
            return d;
        }
        StreamDecoder decoder = stream.decoder();
        if (decoder == null) {
            throw new IllegalStateException("envelopes of " + stream + " are not decodable: no handler declared decodes()");
        }
        return decoder.decode(this);
    }

    DecodedFrame cached() {
        return decoded;
    }

    void cache(DecodedFrame d) {
        decoded = d;
    }

    /** Decodes with the given decoder's cursor; for {@link StreamDecoder} only. */
    DecodedFrame decodeWith(io.sonde.format.read.RecordCursor cursor, String source) {
        try {
            cursor.startFrame(bytes, length, 0, source);
        } catch (FormatException e) {
            return DecodedFrame.failed(this, e.getMessage());
        }
        return DecodedFrame.read(cursor, this);
    }
}
