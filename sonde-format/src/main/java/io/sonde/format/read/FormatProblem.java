package io.sonde.format.read;

/** The kinds of {@link FormatException}. */
public enum FormatProblem {
    /** The stream header's 8 magic bytes are wrong (not a Sonde stream). */
    BAD_MAGIC,
    /** The stream header names a major version this reader does not implement. */
    UNSUPPORTED_VERSION,
    /** The input ended inside the stream header or inside a frame. */
    TRUNCATED,
    /** A frame does not start with the frame magic 'SNDF'. */
    BAD_FRAME_MAGIC,
    /** A frame length below the fixed header size or above the 64 MiB limit. */
    BAD_FRAME_LENGTH,
    /** The CRC-32C stored in a frame does not match its bytes. */
    CRC_MISMATCH,
    /** Inconsistent frame header fields (header length, host name length). */
    BAD_FRAME_HEADER,
    /** A frame type this version does not define. */
    UNKNOWN_FRAME_TYPE,
    /**
     * A COMPRESSED frame (2.4) whose payload cannot be expanded: unknown codec, corrupt LZ4 data, or
     * a length other than the one declared. Only that frame is lost.
     */
    BAD_COMPRESSED_PAYLOAD,
    /** Frames of another agent inside one agent's stream. */
    AGENT_CHANGED,
    /** A frame where none may be: after a TRAILER or SEGMENT_END, or a payload of the wrong size. */
    UNEXPECTED_FRAME,
    /** A block header or block length that runs past the end of its frame. */
    BLOCK_OVERRUN,
    /** A record type byte this version does not define, or one in the wrong kind of block. */
    UNKNOWN_RECORD_TYPE,
    /** A record that runs past the end of its block. */
    RECORD_OVERRUN,
    /** A record using a probe, string or event type id that no definition introduced before. */
    UNDEFINED_ID,
    /** A definition giving an already defined id a different meaning. */
    CONFLICTING_DEFINITION,
    /** A field value outside its domain (a boolean other than 0/1, an unknown field type...). */
    BAD_VALUE,
    /** A segment named by SEGMENT_END is missing, or segments follow a TRAILER. */
    BAD_SEGMENTS,
    /** A path that holds no stream, or several agents where one was expected. */
    NO_STREAM,
    /** Frame sequence numbers jump: frames are missing (or a frame was re-sent under a new number). */
    SEQUENCE_GAP,
    /** A frame repeating the previous frame's sequence number and bytes; the copy is skipped. */
    DUPLICATE_FRAME,
    /** A frame whose sequence number is not above the previous frame's (out of order, or reused). */
    REORDERED_FRAME,
    /** The trailer's count of data records written differs from the data records read. */
    TRAILER_MISMATCH;

    /**
     * True if records may be missing, or out of order, at the point where this problem was met,
     * so that a consumer must not join records across it (e.g. a call tree spanning it is broken).
     * False only for problems that lose nothing at their place: a skipped duplicate frame, and the
     * trailer's count check at the end of the stream.
     */
    public boolean breaksContinuity() {
        return this != DUPLICATE_FRAME && this != TRAILER_MISMATCH;
    }
}
