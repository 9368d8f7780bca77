package io.sonde.format.stream;

import io.sonde.format.Format;
import io.sonde.format.write.StreamHeader;

/**
 * Constants of acknowledged delivery (format 2.2, docs/format.md sections 8 and 10). A 2.2
 * recording stream opens with a HELLO frame; the collector answers on the same connection with a
 * stream of its own (a 2.2 stream header, then ACCEPT or REFUSE, then ACK frames).
 */
public final class DeliveryProtocol {
    private DeliveryProtocol() {}

    /** Minor version of streams with the handshake: 2.2 (2.1 is the observe protocol's). */
    public static final int STREAM_MINOR_VERSION = 2;

    /**
     * Minor version of streams whose HELLO announces the agent's observe endpoint: 2.3. An agent
     * writes 2.3 only when it announces one (a writer writes the lowest version whose features it uses).
     */
    public static final int ANNOUNCE_MINOR_VERSION = 3;

    /**
     * Agent to collector, first frame of a 2.2 stream: str token, i64 acknowledged, i64 next; in a 2.3
     * stream optionally followed by u16 observe port, str advertised host, u8 observe flags.
     */
    public static final byte FRAME_HELLO = 5;
    /** Collector to agent: i64 highest sequence number held (durable) for the agent, -1 for none. */
    public static final byte FRAME_ACCEPT = 6;
    /** Collector to agent: u8 reason code, str reason; the collector then closes the connection. */
    public static final byte FRAME_REFUSE = 7;
    /** Collector to agent: i64 highest sequence number made durable (every lower one is held too). */
    public static final byte FRAME_ACK = 8;

    /**
     * Frame flag (header byte 13) of a repeated registry frame: a DATA frame holding only definitions
     * that an agent sends at the start of a reconnection. It does not take a sequence number of its
     * own: it carries the number of the frame just before the ones that follow it, and readers and
     * the collector skip it in their sequence checks.
     */
    public static final int FLAG_REPEAT = Format.FRAME_FLAG_REPEAT;

    /** "No sequence number" in HELLO and ACCEPT. */
    public static final long NONE = -1;

    /** REFUSE reason: the token is missing or wrong. */
    public static final int REFUSED_TOKEN = 1;
    /** REFUSE reason: a version or message the collector does not take (e.g. a 2.0 stream where a token is required). */
    public static final int REFUSED_VERSION = 2;
    /** REFUSE reason: a limit of the collector (e.g. max-agents). */
    public static final int REFUSED_LIMIT = 3;

    /** Handshake frames are small; a longer one is refused as corrupt. */
    public static final int MAX_FRAME_BYTES = 64 << 10;

    /** The stream header of a 2.2 stream (both directions). */
    public static byte[] streamHeader() {
        return streamHeader(STREAM_MINOR_VERSION);
    }

    /** The stream header of a 2.{@code minor} stream with the handshake (2 or {@link #ANNOUNCE_MINOR_VERSION}). */
    public static byte[] streamHeader(int minor) {
        byte[] h = StreamHeader.bytes();
        h[Format.STREAM_OFF_MAJOR] = (byte) Format.MAJOR_VERSION;
        h[Format.STREAM_OFF_MAJOR + 1] = 0;
        h[Format.STREAM_OFF_MINOR] = (byte) minor;
        h[Format.STREAM_OFF_MINOR + 1] = 0;
        return h;
    }

    /** True for a frame that is a repeated registry frame (flags byte of its header). */
    public static boolean isRepeat(int flags) {
        return (flags & FLAG_REPEAT) != 0;
    }

    /** Name of a REFUSE reason code, for messages. */
    public static String refusalName(int code) {
        switch (code) {
            case REFUSED_TOKEN:
                return "token";
            case REFUSED_VERSION:
                return "version";
            case REFUSED_LIMIT:
                return "limit";
            default:
                return "reason-" + code;
        }
    }
}
