package io.sonde.format;

/**
 * Constants of the Sonde binary format, version 2.4 (which reads 1.0 as well: 2.0 adds the
 * HANDOFF_START record; 2.4 the COMPRESSED frame, which needs no new stream version). The normative description is {@code docs/format.md}; this class and that
 * document must agree. All multi-byte values are little-endian. The minor versions of TCP
 * connections have their constants with their protocols: 2.1 in
 * {@link io.sonde.format.observe.ObserveProtocol}, 2.2 (acknowledged delivery) in
 * {@link io.sonde.format.stream.DeliveryProtocol}.
 */
public final class Format {
    private Format() {}

    // ---- stream header: written once at the start of every file segment and every TCP connection
    /** The 8 magic bytes opening every stream (PNG-style: high bit, "SONDE", CR LF). */
    public static final byte[] STREAM_MAGIC = {(byte) 0x89, 'S', 'O', 'N', 'D', 'E', 0x0D, 0x0A};
    /** The version writers write (docs/format.md section 10: the lowest whose features they may use). */
    public static final int MAJOR_VERSION = 2;
    public static final int MINOR_VERSION = 0;
    /** The oldest major version readers still read (1.0 streams have no HANDOFF_START). */
    public static final int OLDEST_MAJOR_VERSION = 1;
    /** The first major version with the HANDOFF_START record. */
    public static final int HANDOFF_MAJOR_VERSION = 2;
    /** magic (8) + u16 major + u16 minor. */
    public static final int STREAM_HEADER_BYTES = 12;
    public static final int STREAM_OFF_MAJOR = 8; // u16
    public static final int STREAM_OFF_MINOR = 10; // u16

    // ---- frame header
    /** u32 at offset 0 of every frame: the bytes 'S','N','D','F'. */
    public static final int FRAME_MAGIC = 0x46444E53;
    public static final int FRAME_OFF_MAGIC = 0;
    public static final int FRAME_OFF_LENGTH = 4; // u32 total frame bytes, header included
    public static final int FRAME_OFF_CRC = 8; // u32 CRC-32C of frame bytes [12, length)
    public static final int FRAME_OFF_TYPE = 12; // u8
    public static final int FRAME_OFF_FLAGS = 13; // u8, 0 in 1.0
    /** Flag (since 2.2): a repeated registry frame, which takes no sequence number of its own (docs/format.md section 8.1). */
    public static final int FRAME_FLAG_REPEAT = 0x01;
    public static final int FRAME_OFF_HEADER_LENGTH = 14; // u16, offset of the payload
    public static final int FRAME_OFF_AGENT_MSB = 16; // u64
    public static final int FRAME_OFF_AGENT_LSB = 24; // u64
    public static final int FRAME_OFF_SEQUENCE = 32; // u64
    public static final int FRAME_OFF_WALL_NANOS = 40; // i64 ns since the Unix epoch
    public static final int FRAME_OFF_MONO_NANOS = 48; // i64 System.nanoTime() at the same instant
    public static final int FRAME_OFF_PID = 56; // u32
    public static final int FRAME_OFF_HOST_LENGTH = 60; // u16
    public static final int FRAME_OFF_HOST = 62; // host name, UTF-8
    public static final int FRAME_FIXED_HEADER_BYTES = 62;
    /** Readers refuse frames longer than this as corrupt. */
    public static final int MAX_FRAME_BYTES = 64 << 20;

    public static final byte FRAME_DATA = 1;
    public static final byte FRAME_TRAILER = 2;
    public static final byte FRAME_SEGMENT_END = 3;
    /**
     * Since 2.4: a DATA frame whose payload is compressed as a whole (docs/format.md section 4.4);
     * the header is that of the DATA frame, the payload is laid out as in {@link
     * RecordLayout.CompressedPayload}.
     */
    public static final byte FRAME_COMPRESSED = 9;
    /** The format version that added {@link #FRAME_COMPRESSED} (2.4). */
    public static final int COMPRESSION_MINOR_VERSION = 4;
    /** Codec of a COMPRESSED frame: the LZ4 block format. */
    public static final byte CODEC_LZ4 = 1;

    /** True for the frame types whose payload holds blocks of records: DATA, and COMPRESSED (which expands to DATA). */
    public static boolean holdsRecords(byte frameType) {
        return frameType == FRAME_DATA || frameType == FRAME_COMPRESSED;
    }

    // ---- blocks inside a DATA frame payload: u64 thread id, u32 byte length, records
    public static final int BLOCK_HEADER_BYTES = RecordLayout.Block.HEADER_LENGTH;
    /** Thread id of the registry block, which holds only definition records. */
    public static final long REGISTRY_THREAD_ID = 0L;

    // ---- records in thread blocks (u8 type first, then the fields listed); the offsets of the
    // fields are in RecordLayout, which these type ids and sizes come from
    /** u32 probe id, i64 time. */
    public static final byte ENTER = RecordLayout.Enter.TYPE;
    /** u32 probe id, i64 time. */
    public static final byte EXIT = RecordLayout.Exit.TYPE;
    /** u32 probe id, i64 time, u32 exception class string id. */
    public static final byte EXIT_EXCEPTION = RecordLayout.ExitException.TYPE;
    /** u32 probe id, i64 time, i64 thread CPU time. */
    public static final byte ENTER_CPU = RecordLayout.EnterCpu.TYPE;
    /** u32 probe id, i64 time, i64 thread CPU time. */
    public static final byte EXIT_CPU = RecordLayout.ExitCpu.TYPE;
    /** u32 probe id, i64 time, i64 thread CPU time, u32 exception class string id. */
    public static final byte EXIT_EXCEPTION_CPU = RecordLayout.ExitExceptionCpu.TYPE;
    /** u32 event type id, i64 time, then the fields of the event type, fixed size. */
    public static final byte EVENT = RecordLayout.Event.TYPE;
    /** i64 trace id, i64 parent trace id (0: none), i32 parent order index (-1: none). */
    public static final byte TRACE_START = RecordLayout.TraceStart.TYPE;
    /** u32 number of data records this thread dropped just before this point. */
    public static final byte GAP = RecordLayout.Gap.TYPE;
    /**
     * Since 2.0: the TRACE_START of a trace handed off from another execution, with the hand-off
     * time: i64 trace id, i64 parent trace id, i32 parent order index, i64 hand-off time.
     */
    public static final byte HANDOFF_START = RecordLayout.HandoffStart.TYPE;

    public static final int ENTER_BYTES = RecordLayout.Enter.LENGTH;
    public static final int EXIT_BYTES = RecordLayout.Exit.LENGTH;
    public static final int EXIT_EXCEPTION_BYTES = RecordLayout.ExitException.LENGTH;
    public static final int ENTER_CPU_BYTES = RecordLayout.EnterCpu.LENGTH;
    public static final int EXIT_CPU_BYTES = RecordLayout.ExitCpu.LENGTH;
    public static final int EXIT_EXCEPTION_CPU_BYTES = RecordLayout.ExitExceptionCpu.LENGTH;
    /** Fixed part of an EVENT record; the fields follow. */
    public static final int EVENT_HEADER_BYTES = RecordLayout.Event.HEADER_LENGTH;
    public static final int TRACE_START_BYTES = RecordLayout.TraceStart.LENGTH;
    public static final int GAP_BYTES = RecordLayout.Gap.LENGTH;
    public static final int HANDOFF_START_BYTES = RecordLayout.HandoffStart.LENGTH;

    // ---- definition records in the registry block
    /** u32 probe id, str name, str signature. */
    public static final byte PROBE_DEF = RecordLayout.ProbeDef.TYPE;
    /** u32 string id, str value. */
    public static final byte STRING_DEF = RecordLayout.StringDef.TYPE;
    /** u64 thread id, str thread name. */
    public static final byte THREAD_DEF = RecordLayout.ThreadDef.TYPE;
    /** u32 event type id, str name, u8 field count, then per field: u8 field type, str name. */
    public static final byte EVENT_DEF = RecordLayout.EventDef.TYPE;

    // ---- field types of custom events
    public static final byte FIELD_BOOLEAN = 1; // 1 byte, 0 or 1
    public static final byte FIELD_INT = 2; // i32
    public static final byte FIELD_LONG = 3; // i64
    public static final byte FIELD_DOUBLE = 4; // IEEE 754 binary64
    public static final byte FIELD_STRING = 5; // u32 string id

    /** Encoded size of one field value of the given type, or -1 if the type is unknown. */
    public static int fieldBytes(byte fieldType) {
        switch (fieldType) {
            case FIELD_BOOLEAN:
                return 1;
            case FIELD_INT:
            case FIELD_STRING:
                return 4;
            case FIELD_LONG:
            case FIELD_DOUBLE:
                return 8;
            default:
                return -1;
        }
    }

    /**
     * Size of a fixed-size thread-block record of the given type, or -1 for EVENT (whose size
     * depends on its event type) and for unknown types. HANDOFF_START is known only in streams of
     * major version 2 or later (readers check the stream's version).
     */
    public static int fixedRecordBytes(byte type) {
        switch (type) {
            case ENTER:
                return ENTER_BYTES;
            case EXIT:
                return EXIT_BYTES;
            case EXIT_EXCEPTION:
                return EXIT_EXCEPTION_BYTES;
            case ENTER_CPU:
                return ENTER_CPU_BYTES;
            case EXIT_CPU:
                return EXIT_CPU_BYTES;
            case EXIT_EXCEPTION_CPU:
                return EXIT_EXCEPTION_CPU_BYTES;
            case TRACE_START:
                return TRACE_START_BYTES;
            case GAP:
                return GAP_BYTES;
            case HANDOFF_START:
                return HANDOFF_START_BYTES;
            default:
                return -1;
        }
    }

    /** True for the records counted as produced/written/dropped: enter, exit and event records. */
    public static boolean isDataRecord(byte type) {
        return type >= ENTER && type <= EVENT;
    }

    // ---- trailer payload: u64 produced, u64 written, u32 n, n x (u8 reason, u64 count);
    // the reason codes are those of DropReason
}
