package io.sonde.format.read;

import io.sonde.format.Format;
import io.sonde.format.compress.CorruptBlockException;
import io.sonde.format.compress.FrameExpander;
import io.sonde.format.RecordLayout;
import io.sonde.format.RecordLayout.Block;
import io.sonde.format.RecordLayout.Cpu;
import io.sonde.format.RecordLayout.Event;
import io.sonde.format.RecordLayout.EventDef;
import io.sonde.format.RecordLayout.ExitException;
import io.sonde.format.RecordLayout.ExitExceptionCpu;
import io.sonde.format.RecordLayout.Gap;
import io.sonde.format.RecordLayout.HandoffStart;
import io.sonde.format.RecordLayout.ProbeDef;
import io.sonde.format.RecordLayout.Str;
import io.sonde.format.RecordLayout.StringDef;
import io.sonde.format.RecordLayout.ThreadDef;
import io.sonde.format.RecordLayout.Timed;
import io.sonde.format.RecordLayout.TraceStart;
import java.nio.charset.StandardCharsets;

/**
 * A cursor over the records of one DATA frame: its blocks, and the records in each block.
 * {@link #next()} moves to the next record and validates it (block and record sizes within the
 * frame, record types, ids defined, booleans 0/1); definition records are fed into the
 * {@link #registry()}, which lives as long as the cursor, so later frames resolve ids through the
 * definitions of earlier ones. Accessors decode only the field asked for.
 *
 * <p>{@link SondeReader} drives one over every DATA frame of a log. To decode frames that come
 * from elsewhere (e.g. a writer printing its own frames), call {@link #startFrame} for each frame
 * in stream order. Not thread-safe.
 */
public final class RecordCursor implements RecordView {
    private final Registry registry;
    private boolean includeDefinitions;

    /** Expands COMPRESSED frames (2.4); created on the first one. */
    private FrameExpander expander;
    /** True while the frame is one expanded from a COMPRESSED frame: its records have no offset of their own in the source. */
    private boolean expanded;

    // ---- position in the frame
    private byte[] b;
    private FrameHeader frame;
    private String source = "";
    private long frameOffset;
    /** End of the current DATA frame in b, or -1 if no DATA frame is loaded. */
    private int frameEnd = -1;
    private int pos;
    private long blockThread;
    private int blockEnd = -1;

    /** Where problems go in recovery mode; null: they are thrown. */
    private ProblemHandler problems;
    /** In a record being decoded: the offset just past it once its size is known (a bad one can be skipped), else -1. */
    private int resumeAt = -1;

    // ---- the current record
    private int rec = -1;
    /** The type reported: TRACE_START for a HANDOFF_START too (see {@link #recHandoff}). */
    private byte recType;
    /** True when the current record is a HANDOFF_START (a TRACE_START with a hand-off time). */
    private boolean recHandoff;
    private EventType recEventType;
    private long defId;
    private String defText1;

    /** A cursor with an empty registry. */
    public RecordCursor() {
        this(new Registry());
    }

    RecordCursor(Registry registry) {
        this.registry = registry;
    }

    /** Also deliver definition records (types 0x81..0x84) from {@link #next()}. Default: false. */
    public RecordCursor includeDefinitions(boolean include) {
        this.includeDefinitions = include;
        return this;
    }

    /**
     * Starts on a frame held in {@code frame[0, frameLength)}, whose envelope (length, CRC) the
     * caller has checked; the frame is not copied. A COMPRESSED frame is expanded (into a buffer of
     * this cursor). A frame that is neither DATA nor COMPRESSED has no records.
     *
     * @param frameOffset absolute offset of the frame in its source, for messages
     * @throws FormatException if the header length does not fit the frame, or a COMPRESSED frame
     *     cannot be expanded ({@link FormatProblem#BAD_COMPRESSED_PAYLOAD})
     */
    public void startFrame(byte[] frame, int frameLength, long frameOffset, String source) throws FormatException {
        if (frameLength < Format.FRAME_FIXED_HEADER_BYTES || frameLength > frame.length) {
            throw new FormatException(source, frameOffset + Format.FRAME_OFF_LENGTH, FormatProblem.BAD_FRAME_LENGTH,
                    "frame length " + frameLength + " out of range [" + Format.FRAME_FIXED_HEADER_BYTES + ", " + frame.length + "]");
        }
        FrameHeader h = new FrameHeader();
        h.bind(frame, frameLength, frameOffset);
        int hostLength = LittleEndian.u16(frame, Format.FRAME_OFF_HOST_LENGTH);
        if (Format.FRAME_FIXED_HEADER_BYTES + hostLength > h.headerLength() || h.headerLength() > frameLength) {
            throw new FormatException(source, frameOffset + Format.FRAME_OFF_HEADER_LENGTH, FormatProblem.BAD_FRAME_HEADER,
                    "frame header length " + h.headerLength() + " inconsistent with host name length " + hostLength
                            + " and frame length " + frameLength);
        }
        start(h, source);
    }

    /**
     * Starts on the frame of {@code h} (checked by a {@link FrameInput}). A COMPRESSED frame is
     * expanded here, the one place every decoder of records goes through; messages about its records
     * give the COMPRESSED frame's offset and, in words, the byte in the expanded frame.
     *
     * @throws FormatException if a COMPRESSED frame cannot be expanded (in recovery mode the problem
     *     goes to the handler and the frame is skipped: only its records are lost)
     */
    void start(FrameHeader h, String source) throws FormatException {
        this.frame = h;
        this.b = h.bytes();
        this.source = source;
        this.frameOffset = h.offset();
        this.blockEnd = -1;
        this.rec = -1;
        this.frameEnd = -1;
        this.expanded = false;
        byte type = h.type();
        if (type == Format.FRAME_DATA) {
            pos = h.headerLength();
            frameEnd = h.length();
        } else if (type == Format.FRAME_COMPRESSED) {
            int expandedLength;
            try {
                expandedLength = expander().expand(b, h.length());
            } catch (CorruptBlockException e) {
                FormatException problem = error(e.position(), FormatProblem.BAD_COMPRESSED_PAYLOAD,
                        "COMPRESSED frame of " + h.length() + " bytes: " + e.detail());
                if (problems == null) {
                    throw problem;
                }
                problems.problem(new FormatException(problem.source(), problem.offset(), problem.problem(),
                        problem.detail() + "; the frame skipped"));
                return;
            }
            b = expander.bytes();
            pos = h.headerLength();
            frameEnd = expandedLength;
            expanded = true;
        }
    }

    private FrameExpander expander() {
        if (expander == null) {
            expander = new FrameExpander();
        }
        return expander;
    }

    /**
     * Moves to the next record of the frame. Returns false at the end of the frame.
     *
     * @throws FormatException at a corrupt block or record; the frame's later records are then
     *     skipped (in recovery mode the problem goes to the handler instead, see {@link #recover})
     */
    public boolean next() throws FormatException {
        while (true) {
            try {
                return advance();
            } catch (FormatException e) {
                if (problems == null) {
                    clear();
                    throw e;
                }
                problems.problem(new FormatException(e.source(), e.offset(), e.problem(), e.detail() + "; " + skipAfterError()));
            }
        }
    }

    /**
     * Recovery mode: a bad record is skipped (when its size is known: an undefined id, a bad
     * boolean, a conflicting or reserved definition), else the rest of its block, or the rest of
     * the frame for a bad block header; each problem goes to {@code handler} and {@link #next()}
     * goes on. Returns this cursor.
     */
    public RecordCursor recover(ProblemHandler handler) {
        this.problems = handler;
        return this;
    }

    /** Positions the cursor after the record or block that failed; returns what was skipped, in words. */
    private String skipAfterError() {
        rec = -1;
        if (blockEnd < 0) {
            int skipped = Math.max(0, frameEnd - pos);
            frameEnd = -1;
            return "the rest of the frame (" + skipped + " bytes) skipped";
        }
        if (resumeAt >= 0) {
            pos = resumeAt;
            resumeAt = -1;
            return "the record skipped";
        }
        int skipped = blockEnd - pos;
        pos = blockEnd;
        return "the rest of the block of thread " + blockThread + " (" + skipped + " bytes) skipped";
    }

    private boolean advance() throws FormatException {
        while (true) {
            if (blockEnd >= 0) {
                if (pos < blockEnd) {
                    if (decode()) {
                        return true;
                    }
                    continue;
                }
                blockEnd = -1;
            }
            if (frameEnd >= 0 && pos < frameEnd) {
                startBlock();
                continue;
            }
            frameEnd = -1;
            rec = -1;
            return false;
        }
    }

    /** Forgets the current frame (the reader calls this when its input fails). */
    void clear() {
        frameEnd = -1;
        blockEnd = -1;
        rec = -1;
    }

    private void startBlock() throws FormatException {
        if (frameEnd - pos < Block.HEADER_LENGTH) {
            throw error(pos, FormatProblem.BLOCK_OVERRUN,
                    "block header needs " + Block.HEADER_LENGTH + " bytes, frame has " + (frameEnd - pos) + " left");
        }
        long thread = LittleEndian.i64(b, pos + Block.THREAD_ID);
        long length = LittleEndian.u32(b, pos + Block.BYTE_LENGTH);
        if (length > frameEnd - pos - Block.HEADER_LENGTH) {
            throw error(pos + Block.BYTE_LENGTH, FormatProblem.BLOCK_OVERRUN,
                    "block of thread " + thread + " declares " + length + " bytes, frame has " + (frameEnd - pos - Block.HEADER_LENGTH) + " left");
        }
        blockThread = thread;
        pos += Block.HEADER_LENGTH;
        blockEnd = pos + (int) length;
    }

    /** Decodes and checks the record at pos; returns true if it is to be delivered. */
    private boolean decode() throws FormatException {
        int p = pos;
        resumeAt = -1;
        byte type = b[p + RecordLayout.TYPE];
        int left = blockEnd - p;
        if (blockThread == Format.REGISTRY_THREAD_ID) {
            decodeDefinition(p, type, left);
            rec = p;
            recType = type;
            recHandoff = false;
            return includeDefinitions;
        }
        int size = Format.fixedRecordBytes(type);
        EventType et = null;
        if (type == Format.EVENT) {
            need(p, type, Event.HEADER_LENGTH, left);
            int id = LittleEndian.i32(b, p + Event.EVENT_TYPE_ID);
            et = registry.eventType(id);
            if (et == null) {
                throw error(p + Event.EVENT_TYPE_ID, FormatProblem.UNDEFINED_ID, "EVENT uses undefined event type id " + id);
            }
            size = Event.HEADER_LENGTH + et.valueBytes();
        } else if (size < 0) {
            throw error(p, FormatProblem.UNKNOWN_RECORD_TYPE, "unknown record type 0x" + hex(type) + " in the block of thread " + blockThread);
        } else if (type == Format.HANDOFF_START && frame.streamMajorVersion() < Format.HANDOFF_MAJOR_VERSION) {
            throw error(p, FormatProblem.UNKNOWN_RECORD_TYPE, "unknown record type 0x" + hex(type) + " in the block of thread " + blockThread
                    + " (HANDOFF_START exists from format version " + Format.HANDOFF_MAJOR_VERSION + ".0 on; this stream is version "
                    + frame.streamMajorVersion() + ")");
        }
        need(p, type, size, left);
        resumeAt = p + size;
        switch (type) {
            case Format.ENTER:
            case Format.EXIT:
            case Format.ENTER_CPU:
            case Format.EXIT_CPU:
                checkProbe(p);
                break;
            case Format.EXIT_EXCEPTION:
                checkProbe(p);
                checkString(p + ExitException.EXCEPTION_STRING_ID, "exception class");
                break;
            case Format.EXIT_EXCEPTION_CPU:
                checkProbe(p);
                checkString(p + ExitExceptionCpu.EXCEPTION_STRING_ID, "exception class");
                break;
            case Format.EVENT:
                for (int i = 0; i < et.fieldCount(); i++) {
                    int at = p + Event.FIELDS + et.fieldOffset(i);
                    if (et.fieldType(i) == Format.FIELD_STRING) {
                        checkString(at, "event field " + et.fieldName(i));
                    } else if (et.fieldType(i) == Format.FIELD_BOOLEAN && (b[at] & 0xFE) != 0) {
                        throw error(at, FormatProblem.BAD_VALUE, "boolean field " + et.fieldName(i) + " has value " + (b[at] & 0xFF));
                    }
                }
                break;
            default:
                break; // TRACE_START, GAP: no ids
        }
        pos = p + size;
        resumeAt = -1;
        rec = p;
        recHandoff = type == Format.HANDOFF_START;
        recType = recHandoff ? Format.TRACE_START : type;
        recEventType = et;
        return true;
    }

    private void decodeDefinition(int p, byte type, int left) throws FormatException {
        int q;
        String conflict;
        switch (type) {
            case Format.PROBE_DEF: {
                need(p, type, ProbeDef.FIXED_LENGTH, left);
                int id = LittleEndian.i32(b, p + ProbeDef.PROBE_ID);
                q = p + ProbeDef.NAME;
                String name = str(q, p, type);
                q = afterStr(q);
                String sig = str(q, p, type);
                q = afterStr(q);
                conflict = registry.defineProbe(id, name, sig);
                defId = id;
                defText1 = name;
                break;
            }
            case Format.STRING_DEF: {
                need(p, type, StringDef.FIXED_LENGTH, left);
                int id = LittleEndian.i32(b, p + StringDef.STRING_ID);
                q = p + StringDef.VALUE;
                String value = str(q, p, type);
                q = afterStr(q);
                conflict = registry.defineString(id, value);
                defId = id;
                defText1 = value;
                break;
            }
            case Format.THREAD_DEF: {
                need(p, type, ThreadDef.FIXED_LENGTH, left);
                long id = LittleEndian.i64(b, p + ThreadDef.THREAD_ID);
                q = p + ThreadDef.NAME;
                String name = str(q, p, type);
                q = afterStr(q);
                resumeAt = q;
                if (id == Format.REGISTRY_THREAD_ID) {
                    throw error(p + ThreadDef.THREAD_ID, FormatProblem.BAD_VALUE, "THREAD_DEF for thread id 0, which is reserved for the registry");
                }
                conflict = registry.defineThread(id, name);
                defId = id;
                defText1 = name;
                break;
            }
            case Format.EVENT_DEF: {
                need(p, type, EventDef.FIXED_LENGTH, left);
                int id = LittleEndian.i32(b, p + EventDef.EVENT_TYPE_ID);
                q = p + EventDef.NAME;
                String name = str(q, p, type);
                q = afterStr(q);
                need(p, type, q - p + EventDef.FIELD_COUNT_LENGTH, left);
                int k = LittleEndian.u8(b, q);
                q += EventDef.FIELD_COUNT_LENGTH;
                byte[] types = new byte[k];
                String[] names = new String[k];
                for (int i = 0; i < k; i++) {
                    need(p, type, q - p + EventDef.FIELD_TYPE_LENGTH, left);
                    types[i] = b[q];
                    if (Format.fieldBytes(types[i]) < 0) {
                        throw error(q, FormatProblem.BAD_VALUE, "EVENT_DEF " + name + " field " + i + " has unknown field type " + (types[i] & 0xFF));
                    }
                    q += EventDef.FIELD_TYPE_LENGTH;
                    names[i] = str(q, p, type);
                    q = afterStr(q);
                }
                EventType et = new EventType(id, name, types, names);
                conflict = registry.defineEventType(et);
                defId = id;
                defText1 = name;
                recEventType = et;
                break;
            }
            default:
                throw error(p, FormatProblem.UNKNOWN_RECORD_TYPE,
                        (Format.fixedRecordBytes(type) > 0 || type == Format.EVENT ? "data record type 0x" : "unknown record type 0x")
                                + hex(type) + " in the registry block");
        }
        if (conflict != null) {
            resumeAt = q;
            throw error(p, FormatProblem.CONFLICTING_DEFINITION, conflict);
        }
        pos = q;
        resumeAt = -1;
    }

    /** A str field at q (u16 length + UTF-8) that must lie inside the block of the record at p. */
    private String str(int q, int p, byte type) throws FormatException {
        need(p, type, q - p + Str.BYTES, blockEnd - p);
        int n = LittleEndian.u16(b, q + Str.BYTE_LENGTH);
        need(p, type, q - p + Str.BYTES + n, blockEnd - p);
        return new String(b, q + Str.BYTES, n, StandardCharsets.UTF_8);
    }

    /** The offset just past the str field at q (checked by {@link #str}). */
    private int afterStr(int q) {
        return q + Str.BYTES + LittleEndian.u16(b, q + Str.BYTE_LENGTH);
    }

    private void need(int p, byte type, int bytes, int left) throws FormatException {
        if (bytes > left) {
            throw error(p, FormatProblem.RECORD_OVERRUN,
                    "record of type 0x" + hex(type) + " needs " + bytes + " bytes, its block has " + left + " left");
        }
    }

    private void checkProbe(int p) throws FormatException {
        int id = LittleEndian.i32(b, p + Timed.ID);
        if (!registry.hasProbe(id)) {
            throw error(p + Timed.ID, FormatProblem.UNDEFINED_ID, "record of type 0x" + hex(b[p]) + " uses undefined probe id " + id);
        }
    }

    private void checkString(int at, String what) throws FormatException {
        int id = LittleEndian.i32(b, at);
        if (registry.string(id) == null) {
            throw error(at, FormatProblem.UNDEFINED_ID, what + " uses undefined string id " + id);
        }
    }

    private FormatException error(int inFrame, FormatProblem problem, String detail) {
        if (expanded) {
            // no byte of the source holds this record: point at the COMPRESSED frame, say where inside
            return new FormatException(source, frameOffset, problem, detail + " (at byte " + inFrame
                    + " of the DATA frame expanded from the COMPRESSED frame at offset " + frameOffset + ")");
        }
        return new FormatException(source, frameOffset + inFrame, problem, detail);
    }

    private static String hex(byte type) {
        return String.format("%02x", type & 0xFF);
    }

    // =============================================================== accessors of the current record

    private void current() {
        if (rec < 0) {
            throw new IllegalStateException("no current record: call next() first");
        }
    }

    private void require(boolean ok, String what) {
        current();
        if (!ok) {
            throw new IllegalStateException(what + " is not a field of record type " + RecordTypes.name(recHandoff ? Format.HANDOFF_START : recType));
        }
    }

    @Override
    public byte type() {
        current();
        return recType;
    }

    @Override
    public long threadId() {
        current();
        return blockThread;
    }

    @Override
    public String threadName() {
        return registry.threadName(threadId());
    }

    private boolean isProbeRecord() {
        return recType >= Format.ENTER && recType <= Format.EXIT_EXCEPTION_CPU;
    }

    @Override
    public int probeId() {
        current();
        if (recType == Format.PROBE_DEF) {
            return (int) defId;
        }
        require(isProbeRecord(), "probe id");
        return LittleEndian.i32(b, rec + Timed.ID);
    }

    @Override
    public String probeName() {
        return registry.probeName(probeId());
    }

    @Override
    public String probeSignature() {
        return registry.probeSignature(probeId());
    }

    @Override
    public long time() {
        require(isProbeRecord() || recType == Format.EVENT, "time");
        return LittleEndian.i64(b, rec + Timed.TIME);
    }

    @Override
    public long wallTime() {
        return frame.toWallNanos(time());
    }

    @Override
    public boolean hasCpuTime() {
        current();
        return recType == Format.ENTER_CPU || recType == Format.EXIT_CPU || recType == Format.EXIT_EXCEPTION_CPU;
    }

    @Override
    public long cpuTime() {
        require(hasCpuTime(), "CPU time");
        return LittleEndian.i64(b, rec + Cpu.CPU_TIME);
    }

    @Override
    public boolean isExceptionExit() {
        current();
        return recType == Format.EXIT_EXCEPTION || recType == Format.EXIT_EXCEPTION_CPU;
    }

    @Override
    public int exceptionStringId() {
        require(isExceptionExit(), "exception class");
        return LittleEndian.i32(b, rec + (recType == Format.EXIT_EXCEPTION ? ExitException.EXCEPTION_STRING_ID : ExitExceptionCpu.EXCEPTION_STRING_ID));
    }

    @Override
    public String exceptionClass() {
        return registry.string(exceptionStringId());
    }

    @Override
    public int eventTypeId() {
        current();
        if (recType == Format.EVENT_DEF) {
            return (int) defId;
        }
        require(recType == Format.EVENT, "event type");
        return recEventType.id();
    }

    @Override
    public EventType eventType() {
        require(recType == Format.EVENT || recType == Format.EVENT_DEF, "event type");
        return recEventType;
    }

    private int field(int index, byte fieldType) {
        require(recType == Format.EVENT, "event field");
        if (index < 0 || index >= recEventType.fieldCount()) {
            throw new IndexOutOfBoundsException("event " + recEventType.name() + " has " + recEventType.fieldCount() + " fields, asked for " + index);
        }
        if (recEventType.fieldType(index) != fieldType) {
            throw new IllegalStateException("field " + index + " (" + recEventType.fieldName(index) + ") of event " + recEventType.name()
                    + " is " + EventType.fieldTypeName(recEventType.fieldType(index)) + ", not " + EventType.fieldTypeName(fieldType));
        }
        return rec + Event.FIELDS + recEventType.fieldOffset(index);
    }

    @Override
    public boolean fieldBoolean(int index) {
        return b[field(index, Format.FIELD_BOOLEAN)] != 0;
    }

    @Override
    public int fieldInt(int index) {
        return LittleEndian.i32(b, field(index, Format.FIELD_INT));
    }

    @Override
    public long fieldLong(int index) {
        return LittleEndian.i64(b, field(index, Format.FIELD_LONG));
    }

    @Override
    public double fieldDouble(int index) {
        return Double.longBitsToDouble(LittleEndian.i64(b, field(index, Format.FIELD_DOUBLE)));
    }

    @Override
    public int fieldStringId(int index) {
        return LittleEndian.i32(b, field(index, Format.FIELD_STRING));
    }

    @Override
    public String fieldString(int index) {
        return registry.string(fieldStringId(index));
    }

    @Override
    public Object fieldValue(int index) {
        require(recType == Format.EVENT, "event field");
        switch (recEventType.fieldType(index)) {
            case Format.FIELD_BOOLEAN:
                return fieldBoolean(index);
            case Format.FIELD_INT:
                return fieldInt(index);
            case Format.FIELD_LONG:
                return fieldLong(index);
            case Format.FIELD_DOUBLE:
                return fieldDouble(index);
            default:
                return fieldString(index);
        }
    }

    @Override
    public long traceId() {
        require(recType == Format.TRACE_START, "trace id");
        return LittleEndian.i64(b, rec + TraceStart.TRACE_ID);
    }

    @Override
    public long parentTraceId() {
        require(recType == Format.TRACE_START, "parent trace id");
        return LittleEndian.i64(b, rec + TraceStart.PARENT_TRACE_ID);
    }

    @Override
    public int parentOrderIndex() {
        require(recType == Format.TRACE_START, "parent order index");
        return LittleEndian.i32(b, rec + TraceStart.PARENT_ORDER_INDEX);
    }

    @Override
    public boolean hasHandoffTime() {
        current();
        return recHandoff;
    }

    @Override
    public long handoffTime() {
        require(recHandoff, "hand-off time");
        return LittleEndian.i64(b, rec + HandoffStart.HANDOFF_TIME);
    }

    @Override
    public long gapCount() {
        require(recType == Format.GAP, "gap count");
        return LittleEndian.u32(b, rec + Gap.DROPPED);
    }

    private boolean isDefinition() {
        return recType == Format.PROBE_DEF || recType == Format.STRING_DEF || recType == Format.THREAD_DEF || recType == Format.EVENT_DEF;
    }

    @Override
    public long definedId() {
        require(isDefinition(), "defined id");
        return defId;
    }

    @Override
    public String definedName() {
        require(isDefinition(), "definition text");
        return defText1;
    }

    @Override
    public long recordOffset() {
        current();
        return expanded ? frameOffset : frameOffset + rec;
    }

    /** Header of the current frame, or null before {@link #startFrame}. */
    public FrameHeader frame() {
        return frame;
    }

    /** The source named for the current frame. */
    public String source() {
        return source;
    }

    @Override
    public Registry registry() {
        return registry;
    }
}
