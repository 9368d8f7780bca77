package io.sonde.format;

/**
 * The byte layout of every record and payload structure of format 2.0 (1.0 is the same without
 * {@link HandoffStart}), one nested class per
 * record type: its type id, the offset of each field from the record's first byte, and its length.
 * This is the only place the offsets are written down in code; the hot path
 * ({@code ThreadBuffer}), the writer-side encoders, the reader and the text renderer all use these
 * constants. They are compile-time constants, so the JIT folds them exactly as it folds literals:
 * the hot path stays allocation-free and as fast as with hand-written numbers.
 *
 * <p>Every record starts with its u8 type at offset {@link #TYPE}. The tables of
 * {@code docs/format.md} (sections 4.1 to 6) are the normative description; the names here match
 * the field names there. All multi-byte values are little-endian.
 */
public final class RecordLayout {
    private RecordLayout() {}

    /** Offset of the u8 record type, the first byte of every record. */
    public static final int TYPE = 0;

    /**
     * The prefix shared by the six enter/exit records (ENTER, EXIT, EXIT_EXCEPTION and their CPU
     * variants) and by EVENT: u8 type, u32 id (probe id, or event type id for EVENT), i64 time.
     * Code that writes or reads "any probe record" uses these; the per-type classes repeat them.
     */
    public static final class Timed {
        private Timed() {}

        /** u32 probe id (event type id in an EVENT). */
        public static final int ID = 1;
        /** i64 monotonic time in ns. */
        public static final int TIME = 5;
        /** Length of the prefix. */
        public static final int LENGTH = 13;
    }

    /** The CPU variants (ENTER_CPU, EXIT_CPU, EXIT_EXCEPTION_CPU) carry the thread CPU time right after the prefix. */
    public static final class Cpu {
        private Cpu() {}

        /** i64 thread CPU time in ns. */
        public static final int CPU_TIME = Timed.LENGTH;
    }

    /** ENTER: u8 type, u32 probe id, i64 time. */
    public static final class Enter {
        private Enter() {}

        public static final byte TYPE = 0x01;
        public static final int PROBE_ID = Timed.ID;
        public static final int TIME = Timed.TIME;
        public static final int LENGTH = 13;
    }

    /** EXIT: u8 type, u32 probe id, i64 time. */
    public static final class Exit {
        private Exit() {}

        public static final byte TYPE = 0x02;
        public static final int PROBE_ID = Timed.ID;
        public static final int TIME = Timed.TIME;
        public static final int LENGTH = 13;
    }

    /** EXIT_EXCEPTION: u8 type, u32 probe id, i64 time, u32 exception class string id. */
    public static final class ExitException {
        private ExitException() {}

        public static final byte TYPE = 0x03;
        public static final int PROBE_ID = Timed.ID;
        public static final int TIME = Timed.TIME;
        public static final int EXCEPTION_STRING_ID = 13;
        public static final int LENGTH = 17;
    }

    /** ENTER_CPU: u8 type, u32 probe id, i64 time, i64 thread CPU time. */
    public static final class EnterCpu {
        private EnterCpu() {}

        public static final byte TYPE = 0x04;
        public static final int PROBE_ID = Timed.ID;
        public static final int TIME = Timed.TIME;
        public static final int CPU_TIME = Cpu.CPU_TIME;
        public static final int LENGTH = 21;
    }

    /** EXIT_CPU: u8 type, u32 probe id, i64 time, i64 thread CPU time. */
    public static final class ExitCpu {
        private ExitCpu() {}

        public static final byte TYPE = 0x05;
        public static final int PROBE_ID = Timed.ID;
        public static final int TIME = Timed.TIME;
        public static final int CPU_TIME = Cpu.CPU_TIME;
        public static final int LENGTH = 21;
    }

    /** EXIT_EXCEPTION_CPU: u8 type, u32 probe id, i64 time, i64 thread CPU time, u32 exception class string id. */
    public static final class ExitExceptionCpu {
        private ExitExceptionCpu() {}

        public static final byte TYPE = 0x06;
        public static final int PROBE_ID = Timed.ID;
        public static final int TIME = Timed.TIME;
        public static final int CPU_TIME = Cpu.CPU_TIME;
        public static final int EXCEPTION_STRING_ID = 21;
        public static final int LENGTH = 25;
    }

    /**
     * EVENT: u8 type, u32 event type id, i64 time, then the values of the event type's fields back
     * to back (sizes by field type, {@link Format#fieldBytes}); the record length is
     * {@link #HEADER_LENGTH} plus the value bytes.
     */
    public static final class Event {
        private Event() {}

        public static final byte TYPE = 0x07;
        public static final int EVENT_TYPE_ID = Timed.ID;
        public static final int TIME = Timed.TIME;
        /** Offset of the first field value. */
        public static final int FIELDS = 13;
        /** The fixed part before the field values. */
        public static final int HEADER_LENGTH = 13;
    }

    /** TRACE_START: u8 type, i64 trace id, i64 parent trace id (0: none), i32 parent order index (-1: none). */
    public static final class TraceStart {
        private TraceStart() {}

        public static final byte TYPE = 0x08;
        public static final int TRACE_ID = 1;
        public static final int PARENT_TRACE_ID = 9;
        public static final int PARENT_ORDER_INDEX = 17;
        public static final int LENGTH = 21;
    }

    /** GAP: u8 type, u32 number of data records the thread dropped just before this point. */
    public static final class Gap {
        private Gap() {}

        public static final byte TYPE = 0x09;
        public static final int DROPPED = 1;
        public static final int LENGTH = 5;
    }

    /**
     * HANDOFF_START (since 2.0): the TRACE_START of a trace handed off from another execution,
     * carrying the hand-off time as well: u8 type, i64 trace id, i64 parent trace id, i32 parent
     * order index, i64 hand-off time (the monotonic time at which the parent handed the work
     * over). The first 21 bytes are laid out as in a TRACE_START.
     */
    public static final class HandoffStart {
        private HandoffStart() {}

        public static final byte TYPE = 0x0A;
        public static final int TRACE_ID = TraceStart.TRACE_ID;
        public static final int PARENT_TRACE_ID = TraceStart.PARENT_TRACE_ID;
        public static final int PARENT_ORDER_INDEX = TraceStart.PARENT_ORDER_INDEX;
        /** i64 monotonic time of the hand-off, ns. */
        public static final int HANDOFF_TIME = TraceStart.LENGTH;
        public static final int LENGTH = 29;
    }

    /**
     * A {@code str} field: u16 byte length n, then n bytes of UTF-8. Definition records are
     * variable-length because of these; their fixed part ends where the first str starts.
     */
    public static final class Str {
        private Str() {}

        /** u16 byte length of the UTF-8 bytes that follow. */
        public static final int BYTE_LENGTH = 0;
        /** Offset of the UTF-8 bytes. */
        public static final int BYTES = 2;
        /** Largest encodable byte length. */
        public static final int MAX_BYTES = 0xFFFF;
    }

    /** PROBE_DEF: u8 type, u32 probe id, str name, str signature. */
    public static final class ProbeDef {
        private ProbeDef() {}

        public static final byte TYPE = (byte) 0x81;
        public static final int PROBE_ID = 1;
        /** Offset of the name (a str); the signature str follows it. */
        public static final int NAME = 5;
        /** Bytes before the first str. */
        public static final int FIXED_LENGTH = 5;
    }

    /** STRING_DEF: u8 type, u32 string id, str value. */
    public static final class StringDef {
        private StringDef() {}

        public static final byte TYPE = (byte) 0x82;
        public static final int STRING_ID = 1;
        /** Offset of the value (a str). */
        public static final int VALUE = 5;
        public static final int FIXED_LENGTH = 5;
    }

    /** THREAD_DEF: u8 type, u64 thread id, str thread name. */
    public static final class ThreadDef {
        private ThreadDef() {}

        public static final byte TYPE = (byte) 0x83;
        public static final int THREAD_ID = 1;
        /** Offset of the thread name (a str). */
        public static final int NAME = 9;
        public static final int FIXED_LENGTH = 9;
    }

    /**
     * EVENT_DEF: u8 type, u32 event type id, str name, u8 field count k, then k times (u8 field
     * type, str field name).
     */
    public static final class EventDef {
        private EventDef() {}

        public static final byte TYPE = (byte) 0x84;
        public static final int EVENT_TYPE_ID = 1;
        /** Offset of the name (a str); the u8 field count follows it. */
        public static final int NAME = 5;
        public static final int FIXED_LENGTH = 5;
        /** Bytes of the field count that follows the name. */
        public static final int FIELD_COUNT_LENGTH = 1;
        /** Bytes of the field type that opens each field entry (its name str follows). */
        public static final int FIELD_TYPE_LENGTH = 1;
        /** Most fields an event type can have (the count is a u8). */
        public static final int MAX_FIELDS = 255;
    }

    /** The header of a block in a DATA payload: u64 thread id, u32 byte length of the records that follow. */
    public static final class Block {
        private Block() {}

        public static final int THREAD_ID = 0;
        public static final int BYTE_LENGTH = 8;
        public static final int HEADER_LENGTH = 12;
    }

    /**
     * The TRAILER payload: u64 produced, u64 written, u32 number of drop entries k, then k drop
     * entries (u8 reason, u64 count).
     */
    public static final class TrailerPayload {
        private TrailerPayload() {}

        public static final int PRODUCED = 0;
        public static final int WRITTEN = 8;
        public static final int DROP_ENTRY_COUNT = 16;
        /** Offset of the first drop entry; also the length of the fixed part. */
        public static final int DROP_ENTRIES = 20;
        /** Offset of the u8 reason within a drop entry. */
        public static final int DROP_REASON = 0;
        /** Offset of the u64 count within a drop entry. */
        public static final int DROP_COUNT = 1;
        public static final int DROP_ENTRY_LENGTH = 9;
    }

    /** The SEGMENT_END payload: u32 index of the next segment. */
    public static final class SegmentEndPayload {
        private SegmentEndPayload() {}

        public static final int NEXT_SEGMENT_INDEX = 0;
        public static final int LENGTH = 4;
        /** Largest next-segment index a reader accepts. */
        public static final long MAX_SEGMENT_INDEX = 999_999_999L;
    }

    /**
     * Payload of a COMPRESSED frame (since 2.4): u8 codec ({@link io.sonde.format.Format#CODEC_LZ4}),
     * u8 type of the frame compressed (DATA), u32 length of the payload before compression, then the
     * compressed payload up to the end of the frame.
     */
    public static final class CompressedPayload {
        private CompressedPayload() {}

        public static final int CODEC = 0;
        public static final int FRAME_TYPE = 1;
        public static final int ORIGINAL_LENGTH = 2;
        public static final int DATA = 6;
        public static final int HEADER_LENGTH = 6;
    }
}
