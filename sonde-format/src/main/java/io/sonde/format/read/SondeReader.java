package io.sonde.format.read;

import io.sonde.format.Format;
import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A lazy cursor over the records of one agent's stream: one file, or the segment files of one
 * agent in order. {@link #next()} moves to the next record; accessors decode only the field they
 * are asked for, straight from the current frame's bytes. Definition records are consumed into
 * the {@link #registry()} (and delivered too if {@link #includeDefinitions(boolean)} is set);
 * ids are resolved through the definitions seen so far.
 *
 * <pre>{@code
 * try (SondeReader r = SondeReader.open(path)) {          // a file or a folder of one agent's segments
 *     while (r.next()) {                                    // throws FormatException on corrupt input
 *         if (r.type() == Format.ENTER) use(r.threadId(), r.probeName(), r.time());
 *     }
 *     ReadEnd end = r.end();                                // COMPLETE, INCOMPLETE (no trailer) or ERROR
 *     Trailer t = r.trailer();                              // counters, or null
 * }
 * }</pre>
 *
 * <p>Memory: one frame buffer (the largest frame read, at most 64 MiB) plus the definitions; files
 * of any size stream. On corrupt input the reader throws {@link FormatException} (and only that,
 * or an {@link IOException} when the file system fails), after having delivered every record
 * before the bad point; {@link #end()} then tells where and why it stopped. Accessor values are
 * valid until the next call of {@link #next()}. Not thread-safe.
 */
public final class SondeReader implements Closeable {

    /** Opens one input: its name for messages, its segment index (or -1), and a way to open it. */
    interface SegmentSource {
        String name();

        int index();

        InputStream open() throws IOException;
    }

    private final List<SegmentSource> segments;
    private final Registry registry = new Registry();
    private boolean includeDefinitions;

    // ---- position in the input
    private int segmentIndex = -1;
    private FrameInput input;
    private String source = "";
    private byte[] b;
    private FrameHeader frame;
    private long frameOffset;
    /** End of the current DATA frame in b, or -1 if no DATA frame is loaded. */
    private int frameEnd = -1;
    private int pos;
    private long blockThread;
    private int blockEnd = -1;
    private boolean hasAgent;
    private long agentMsb;
    private long agentLsb;
    /** Set by a SEGMENT_END frame: the index of the segment that must follow, else -1. */
    private int nextSegmentIndex = -1;
    private boolean segmentEnded;
    private long frames;
    private long records;
    private long lastSequence = -1;
    private long missingFrames;

    // ---- the current record
    private int rec = -1;
    private byte recType;
    private EventType recEventType;
    private long defId;
    private String defText1;

    private Trailer trailer;
    private ReadEnd end;

    SondeReader(AgentLog log) {
        List<SegmentSource> list = new ArrayList<>();
        for (int i = 0; i < log.segments().size(); i++) {
            Path p = log.segments().get(i);
            int index = log.segmentIndexes().get(i);
            list.add(new SegmentSource() {
                @Override
                public String name() {
                    return p.toString();
                }

                @Override
                public int index() {
                    return index;
                }

                @Override
                public InputStream open() throws IOException {
                    return new BufferedInputStream(Files.newInputStream(p), 1 << 16);
                }
            });
        }
        this.segments = list;
    }

    private SondeReader(List<SegmentSource> segments) {
        this.segments = segments;
    }

    /**
     * Opens a file, or a folder holding the segments of exactly one agent (see
     * {@link SondeLogs#scan(Path)} for folders of several agents).
     *
     * @throws FormatException ({@link FormatProblem#NO_STREAM}) if the path holds no stream or
     *     several agents' streams
     */
    public static SondeReader open(Path path) throws IOException {
        List<AgentLog> logs = SondeLogs.scan(path);
        if (logs.isEmpty()) {
            throw new FormatException(path.toString(), 0, FormatProblem.NO_STREAM, "no .sonde files found");
        }
        if (logs.size() > 1) {
            throw new FormatException(path.toString(), 0, FormatProblem.NO_STREAM,
                    "holds " + logs.size() + " separate streams " + logs + "; open them one by one");
        }
        return logs.get(0).open();
    }

    /** Reads one stream from an input stream (e.g. a socket); {@code name} is used in messages. */
    public static SondeReader of(InputStream in, String name) {
        return new SondeReader(List.of(new SegmentSource() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public int index() {
                return -1;
            }

            @Override
            public InputStream open() {
                return in;
            }
        }));
    }

    /** Also deliver definition records (types 0x81..0x84) from {@link #next()}. Default: false. */
    public SondeReader includeDefinitions(boolean include) {
        this.includeDefinitions = include;
        return this;
    }

    /**
     * Moves to the next record. Returns false when the stream has ended (see {@link #end()}).
     *
     * @throws FormatException at corrupt input; every record before it has been delivered, and
     *     later calls return false
     */
    public boolean next() throws IOException {
        if (end != null) {
            return false;
        }
        try {
            while (true) {
                if (blockEnd >= 0) {
                    if (pos < blockEnd) {
                        if (decode()) {
                            records++;
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
                if (!loadFrame()) {
                    return false;
                }
            }
        } catch (FormatException e) {
            end = new ReadEnd(ReadEnd.Kind.ERROR, e.source(), e.offset(), e.getMessage(), e);
            rec = -1;
            closeInput();
            throw e;
        } catch (IOException e) {
            end = new ReadEnd(ReadEnd.Kind.ERROR, source, input == null ? 0 : input.frameOffset(), source + ": " + e, e);
            rec = -1;
            closeInput();
            throw e;
        }
    }

    private void startBlock() throws FormatException {
        if (frameEnd - pos < Format.BLOCK_HEADER_BYTES) {
            throw error(pos, FormatProblem.BLOCK_OVERRUN,
                    "block header needs " + Format.BLOCK_HEADER_BYTES + " bytes, frame has " + (frameEnd - pos) + " left");
        }
        long thread = LittleEndian.i64(b, pos);
        long length = LittleEndian.u32(b, pos + 8);
        if (length > frameEnd - pos - Format.BLOCK_HEADER_BYTES) {
            throw error(pos + 8, FormatProblem.BLOCK_OVERRUN,
                    "block of thread " + thread + " declares " + length + " bytes, frame has " + (frameEnd - pos - Format.BLOCK_HEADER_BYTES) + " left");
        }
        blockThread = thread;
        pos += Format.BLOCK_HEADER_BYTES;
        blockEnd = pos + (int) length;
    }

    /** Loads the next DATA frame (handling TRAILER, SEGMENT_END and segment changes). */
    private boolean loadFrame() throws IOException {
        while (true) {
            if (input == null && !openNextSegment()) {
                return false;
            }
            if (!input.nextFrame()) {
                long at = input.endOfLastFrame();
                closeInput();
                if (trailer != null) {
                    if (segmentIndex + 1 < segments.size()) {
                        throw new FormatException(segments.get(segmentIndex + 1).name(), 0, FormatProblem.BAD_SEGMENTS,
                                "segment follows the segment holding the trailer (" + source + ")");
                    }
                    end = new ReadEnd(ReadEnd.Kind.COMPLETE, source, at, "stream complete: trailer read", null);
                    return false;
                }
                if (segmentIndex + 1 >= segments.size()) {
                    String why = nextSegmentIndex >= 0
                            ? "stream continues in segment " + String.format("%06d", nextSegmentIndex) + ", which was not given (offset " + at + ")"
                            : "stream ended without trailer at offset " + at;
                    end = new ReadEnd(ReadEnd.Kind.INCOMPLETE, source, at, why, null);
                    return false;
                }
                continue;
            }
            FrameHeader h = input.header();
            long offset = h.offset();
            if (trailer != null || segmentEnded) {
                throw new FormatException(source, offset, FormatProblem.UNEXPECTED_FRAME,
                        "frame after the " + (trailer != null ? "TRAILER" : "SEGMENT_END") + " frame");
            }
            if (!hasAgent) {
                hasAgent = true;
                agentMsb = h.agentMostSignificantBits();
                agentLsb = h.agentLeastSignificantBits();
            } else if (agentMsb != h.agentMostSignificantBits() || agentLsb != h.agentLeastSignificantBits()) {
                throw new FormatException(source, offset + Format.FRAME_OFF_AGENT_MSB, FormatProblem.AGENT_CHANGED,
                        "frame of agent " + h.agentId() + " in the stream of agent " + new UUID(agentMsb, agentLsb));
            }
            frames++;
            long sequence = h.sequence();
            if (lastSequence >= 0 && sequence > lastSequence + 1) {
                missingFrames += sequence - lastSequence - 1;
            }
            lastSequence = Math.max(lastSequence, sequence);
            b = input.frameBytes();
            frame = h;
            frameOffset = offset;
            int payload = h.headerLength();
            int length = h.length();
            switch (h.type()) {
                case Format.FRAME_DATA:
                    pos = payload;
                    frameEnd = length;
                    return true;
                case Format.FRAME_TRAILER:
                    trailer = parseTrailer(payload, length);
                    break;
                case Format.FRAME_SEGMENT_END:
                    if (length - payload < 4) {
                        throw error(payload, FormatProblem.UNEXPECTED_FRAME, "SEGMENT_END payload has " + (length - payload) + " bytes, needs 4");
                    }
                    long next = LittleEndian.u32(b, payload);
                    if (next > 999_999_999) {
                        throw error(payload, FormatProblem.BAD_VALUE, "SEGMENT_END names segment index " + next);
                    }
                    nextSegmentIndex = (int) next;
                    segmentEnded = true;
                    break;
                default:
                    break; // a frame type of a later minor version (FrameInput allowed it): skip
            }
        }
    }

    private Trailer parseTrailer(int p, int length) throws FormatException {
        if (length - p < 20) {
            throw error(p, FormatProblem.UNEXPECTED_FRAME, "TRAILER payload has " + (length - p) + " bytes, needs at least 20");
        }
        long produced = LittleEndian.i64(b, p);
        long written = LittleEndian.i64(b, p + 8);
        long n = LittleEndian.u32(b, p + 16);
        if (n > (length - p - 20) / 9) {
            throw error(p + 16, FormatProblem.UNEXPECTED_FRAME,
                    "TRAILER declares " + n + " drop entries, payload holds " + (length - p - 20) / 9);
        }
        java.util.Map<Integer, Long> drops = new java.util.LinkedHashMap<>();
        int q = p + 20;
        for (int i = 0; i < n; i++, q += 9) {
            drops.merge(LittleEndian.u8(b, q), LittleEndian.i64(b, q + 1), Long::sum);
        }
        return new Trailer(produced, written, drops);
    }

    private boolean openNextSegment() throws IOException {
        if (segmentIndex + 1 >= segments.size()) {
            // only reached before any segment was opened
            end = new ReadEnd(ReadEnd.Kind.INCOMPLETE, source, 0, "no input", null);
            return false;
        }
        SegmentSource next = segments.get(segmentIndex + 1);
        if (segmentEnded && next.index() >= 0 && next.index() != nextSegmentIndex) {
            throw new FormatException(next.name(), 0, FormatProblem.BAD_SEGMENTS,
                    "expected segment " + String.format("%06d", nextSegmentIndex) + " (named by SEGMENT_END in " + source + "), found segment "
                            + String.format("%06d", next.index()));
        }
        segmentIndex++;
        source = next.name();
        segmentEnded = false;
        nextSegmentIndex = -1;
        input = new FrameInput(next.open(), source);
        if (!input.readStreamHeader()) {
            throw new FormatException(source, 0, FormatProblem.TRUNCATED, "empty input: no stream header");
        }
        return true;
    }

    private void closeInput() {
        if (input != null) {
            try {
                input.close();
            } catch (IOException ignored) {
                // a close failure after reading cannot lose data
            }
            input = null;
        }
        frameEnd = -1;
        blockEnd = -1;
    }

    /** Decodes and checks the record at pos; returns true if it is to be delivered. */
    private boolean decode() throws FormatException {
        int p = pos;
        byte type = b[p];
        int left = blockEnd - p;
        if (blockThread == Format.REGISTRY_THREAD_ID) {
            decodeDefinition(p, type, left);
            rec = p;
            recType = type;
            return includeDefinitions;
        }
        int size = Format.fixedRecordBytes(type);
        EventType et = null;
        if (type == Format.EVENT) {
            need(p, type, Format.EVENT_HEADER_BYTES, left);
            int id = LittleEndian.i32(b, p + 1);
            et = registry.eventType(id);
            if (et == null) {
                throw error(p + 1, FormatProblem.UNDEFINED_ID, "EVENT uses undefined event type id " + id);
            }
            size = Format.EVENT_HEADER_BYTES + et.valueBytes();
        } else if (size < 0) {
            throw error(p, FormatProblem.UNKNOWN_RECORD_TYPE, "unknown record type 0x" + hex(type) + " in the block of thread " + blockThread);
        }
        need(p, type, size, left);
        switch (type) {
            case Format.ENTER:
            case Format.EXIT:
            case Format.ENTER_CPU:
            case Format.EXIT_CPU:
                checkProbe(p);
                break;
            case Format.EXIT_EXCEPTION:
                checkProbe(p);
                checkString(p + 13, "exception class");
                break;
            case Format.EXIT_EXCEPTION_CPU:
                checkProbe(p);
                checkString(p + 21, "exception class");
                break;
            case Format.EVENT:
                for (int i = 0; i < et.fieldCount(); i++) {
                    int at = p + Format.EVENT_HEADER_BYTES + et.fieldOffset(i);
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
        rec = p;
        recType = type;
        recEventType = et;
        return true;
    }

    private void decodeDefinition(int p, byte type, int left) throws FormatException {
        int q;
        String conflict;
        switch (type) {
            case Format.PROBE_DEF: {
                need(p, type, 5, left);
                int id = LittleEndian.i32(b, p + 1);
                q = p + 5;
                String name = str(q, p, type);
                q += 2 + LittleEndian.u16(b, q);
                String sig = str(q, p, type);
                q += 2 + LittleEndian.u16(b, q);
                conflict = registry.defineProbe(id, name, sig);
                defId = id;
                defText1 = name;
                break;
            }
            case Format.STRING_DEF: {
                need(p, type, 5, left);
                int id = LittleEndian.i32(b, p + 1);
                q = p + 5;
                String value = str(q, p, type);
                q += 2 + LittleEndian.u16(b, q);
                conflict = registry.defineString(id, value);
                defId = id;
                defText1 = value;
                break;
            }
            case Format.THREAD_DEF: {
                need(p, type, 9, left);
                long id = LittleEndian.i64(b, p + 1);
                q = p + 9;
                String name = str(q, p, type);
                q += 2 + LittleEndian.u16(b, q);
                if (id == Format.REGISTRY_THREAD_ID) {
                    throw error(p + 1, FormatProblem.BAD_VALUE, "THREAD_DEF for thread id 0, which is reserved for the registry");
                }
                conflict = registry.defineThread(id, name);
                defId = id;
                defText1 = name;
                break;
            }
            case Format.EVENT_DEF: {
                need(p, type, 5, left);
                int id = LittleEndian.i32(b, p + 1);
                q = p + 5;
                String name = str(q, p, type);
                q += 2 + LittleEndian.u16(b, q);
                need(p, type, q - p + 1, left);
                int k = LittleEndian.u8(b, q);
                q++;
                byte[] types = new byte[k];
                String[] names = new String[k];
                for (int i = 0; i < k; i++) {
                    need(p, type, q - p + 1, left);
                    types[i] = b[q];
                    if (Format.fieldBytes(types[i]) < 0) {
                        throw error(q, FormatProblem.BAD_VALUE, "EVENT_DEF " + name + " field " + i + " has unknown field type " + (types[i] & 0xFF));
                    }
                    q++;
                    names[i] = str(q, p, type);
                    q += 2 + LittleEndian.u16(b, q);
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
            throw error(p, FormatProblem.CONFLICTING_DEFINITION, conflict);
        }
        pos = q;
    }

    /** A str field at q (u16 length + UTF-8) that must lie inside the block of the record at p. */
    private String str(int q, int p, byte type) throws FormatException {
        need(p, type, q - p + 2, blockEnd - p);
        int n = LittleEndian.u16(b, q);
        need(p, type, q - p + 2 + n, blockEnd - p);
        return new String(b, q + 2, n, StandardCharsets.UTF_8);
    }

    private void need(int p, byte type, int bytes, int left) throws FormatException {
        if (bytes > left) {
            throw error(p, FormatProblem.RECORD_OVERRUN,
                    "record of type 0x" + hex(type) + " needs " + bytes + " bytes, its block has " + left + " left");
        }
    }

    private void checkProbe(int p) throws FormatException {
        int id = LittleEndian.i32(b, p + 1);
        if (!registry.hasProbe(id)) {
            throw error(p + 1, FormatProblem.UNDEFINED_ID, "record of type 0x" + hex(b[p]) + " uses undefined probe id " + id);
        }
    }

    private void checkString(int at, String what) throws FormatException {
        int id = LittleEndian.i32(b, at);
        if (registry.string(id) == null) {
            throw error(at, FormatProblem.UNDEFINED_ID, what + " uses undefined string id " + id);
        }
    }

    private FormatException error(int inFrame, FormatProblem problem, String detail) {
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
            throw new IllegalStateException(what + " is not a field of record type " + RecordTypes.name(recType));
        }
    }

    /** The record type byte, one of the record constants in {@link Format}. */
    public byte type() {
        current();
        return recType;
    }

    /** The thread whose block holds the record (0 for definitions). */
    public long threadId() {
        current();
        return blockThread;
    }

    /** The name of {@link #threadId()} from its THREAD_DEF, or null if the stream does not name it. */
    public String threadName() {
        return registry.threadName(threadId());
    }

    private boolean isProbeRecord() {
        return recType >= Format.ENTER && recType <= Format.EXIT_EXCEPTION_CPU;
    }

    /** Probe id of an ENTER/EXIT record (any of types 0x01..0x06) or of a PROBE_DEF. */
    public int probeId() {
        current();
        if (recType == Format.PROBE_DEF) {
            return (int) defId;
        }
        require(isProbeRecord(), "probe id");
        return LittleEndian.i32(b, rec + 1);
    }

    /** Name of the record's probe. */
    public String probeName() {
        return registry.probeName(probeId());
    }

    /** Signature of the record's probe. */
    public String probeSignature() {
        return registry.probeSignature(probeId());
    }

    /** Monotonic time (ns) of an enter, exit or event record. */
    public long time() {
        require(isProbeRecord() || recType == Format.EVENT, "time");
        return LittleEndian.i64(b, rec + 5);
    }

    /** {@link #time()} as wall-clock ns since the epoch, through the current frame's clock pair. */
    public long wallTime() {
        return frame.toWallNanos(time());
    }

    /** True for the records that carry thread CPU time (ENTER_CPU, EXIT_CPU, EXIT_EXCEPTION_CPU). */
    public boolean hasCpuTime() {
        current();
        return recType == Format.ENTER_CPU || recType == Format.EXIT_CPU || recType == Format.EXIT_EXCEPTION_CPU;
    }

    /** Thread CPU time (ns) of a CPU variant record. */
    public long cpuTime() {
        require(hasCpuTime(), "CPU time");
        return LittleEndian.i64(b, rec + 13);
    }

    /** True for EXIT_EXCEPTION and EXIT_EXCEPTION_CPU. */
    public boolean isExceptionExit() {
        current();
        return recType == Format.EXIT_EXCEPTION || recType == Format.EXIT_EXCEPTION_CPU;
    }

    /** String id of the exception class of an exceptional exit. */
    public int exceptionStringId() {
        require(isExceptionExit(), "exception class");
        return LittleEndian.i32(b, rec + (recType == Format.EXIT_EXCEPTION ? 13 : 21));
    }

    /** Exception class name of an exceptional exit. */
    public String exceptionClass() {
        return registry.string(exceptionStringId());
    }

    /** Event type id of an EVENT (or EVENT_DEF) record. */
    public int eventTypeId() {
        current();
        if (recType == Format.EVENT_DEF) {
            return (int) defId;
        }
        require(recType == Format.EVENT, "event type");
        return recEventType.id();
    }

    /** Event type of an EVENT (or EVENT_DEF) record. */
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
        return rec + Format.EVENT_HEADER_BYTES + recEventType.fieldOffset(index);
    }

    public boolean fieldBoolean(int index) {
        return b[field(index, Format.FIELD_BOOLEAN)] != 0;
    }

    public int fieldInt(int index) {
        return LittleEndian.i32(b, field(index, Format.FIELD_INT));
    }

    public long fieldLong(int index) {
        return LittleEndian.i64(b, field(index, Format.FIELD_LONG));
    }

    public double fieldDouble(int index) {
        return Double.longBitsToDouble(LittleEndian.i64(b, field(index, Format.FIELD_DOUBLE)));
    }

    /** String id of a string field. */
    public int fieldStringId(int index) {
        return LittleEndian.i32(b, field(index, Format.FIELD_STRING));
    }

    /** Value of a string field, resolved through the registry. */
    public String fieldString(int index) {
        return registry.string(fieldStringId(index));
    }

    /** Any field value, boxed (Boolean, Integer, Long, Double or String): convenient, allocates. */
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

    /** Trace id of a TRACE_START. */
    public long traceId() {
        require(recType == Format.TRACE_START, "trace id");
        return LittleEndian.i64(b, rec + 1);
    }

    /** Parent trace id of a TRACE_START (0: none). */
    public long parentTraceId() {
        require(recType == Format.TRACE_START, "parent trace id");
        return LittleEndian.i64(b, rec + 9);
    }

    /** Order index of the parent execution in its trace (-1: none). */
    public int parentOrderIndex() {
        require(recType == Format.TRACE_START, "parent order index");
        return LittleEndian.i32(b, rec + 17);
    }

    /** Number of data records dropped at a GAP. */
    public long gapCount() {
        require(recType == Format.GAP, "gap count");
        return LittleEndian.u32(b, rec + 1);
    }

    private boolean isDefinition() {
        return recType == Format.PROBE_DEF || recType == Format.STRING_DEF || recType == Format.THREAD_DEF || recType == Format.EVENT_DEF;
    }

    /** The id a definition record defines (probe, string or event type id, or the thread id of a THREAD_DEF). */
    public long definedId() {
        require(isDefinition(), "defined id");
        return defId;
    }

    /** Value of a STRING_DEF, or the name in a PROBE_DEF, THREAD_DEF or EVENT_DEF. */
    public String definedName() {
        require(isDefinition(), "definition text");
        return defText1;
    }

    /** Absolute byte offset of the current record in {@link #source()}. */
    public long recordOffset() {
        current();
        return frameOffset + rec;
    }

    /** The file (or stream name) the current record, or the last frame, came from. */
    public String source() {
        return source;
    }

    /** Header of the frame holding the current record (or of the last frame read). */
    public FrameHeader frame() {
        if (frame == null) {
            throw new IllegalStateException("no frame read yet");
        }
        return frame;
    }

    /** The agent id of the stream (from its first frame), or null before the first frame. */
    public UUID agentId() {
        return hasAgent ? new UUID(agentMsb, agentLsb) : null;
    }

    /** Definitions seen so far. */
    public Registry registry() {
        return registry;
    }

    /** The trailer's counters once the TRAILER frame has been read, else null. */
    public Trailer trailer() {
        return trailer;
    }

    /** Where and why reading stopped, or null while records may still follow. */
    public ReadEnd end() {
        return end;
    }

    /** Number of frames read so far. */
    public long framesRead() {
        return frames;
    }

    /**
     * Frames known to be missing: the sum of the gaps in the frame sequence numbers seen so far
     * (frames a TCP connection lost when it broke, or a segment file that is not there). 0 for a
     * whole stream.
     */
    public long missingFrames() {
        return missingFrames;
    }

    /** Number of records delivered so far. */
    public long recordsRead() {
        return records;
    }

    @Override
    public void close() {
        closeInput();
        if (end == null) {
            end = new ReadEnd(ReadEnd.Kind.INCOMPLETE, source, 0, "closed before the end", null);
        }
    }
}
