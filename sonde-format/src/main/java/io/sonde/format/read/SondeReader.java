package io.sonde.format.read;

import io.sonde.format.Format;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
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
 * before the bad point; {@link #end()} then tells where and why it stopped. In recovery mode
 * ({@link #recover(ProblemHandler)}) it reports each problem to a handler instead and reads on
 * past the damage. Accessor values are valid until the next call of {@link #next()}. Not
 * thread-safe.
 *
 * <p>The work is done by two parts this class joins: a {@link FrameStream} (segments, frames,
 * and the checks that span frames) and a {@link RecordCursor} over each DATA frame (blocks,
 * records, their validation and the registry).
 */
public final class SondeReader implements Closeable, RecordView {
    private final FrameStream frames;
    private final RecordCursor records = new RecordCursor();
    private long delivered;
    private long dataRecords;
    private ProblemHandler problems;
    private long problemCount;
    private ReadEnd end;

    SondeReader(AgentLog log) {
        List<SegmentSource> list = new ArrayList<>();
        for (int i = 0; i < log.segments().size(); i++) {
            list.add(SegmentSource.file(log.segments().get(i), log.segmentIndexes().get(i)));
        }
        this.frames = new FrameStream(list);
    }

    private SondeReader(List<SegmentSource> segments) {
        this.frames = new FrameStream(segments);
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
        return new SondeReader(List.of(SegmentSource.stream(in, name)));
    }

    /** Also deliver definition records (types 0x81..0x84) from {@link #next()}. Default: false. */
    public SondeReader includeDefinitions(boolean include) {
        records.includeDefinitions(include);
        return this;
    }

    /**
     * Reads past damage instead of stopping at it (recovery mode). Each problem goes to
     * {@code handler} at the moment it is met, before the next record is delivered, and reading
     * goes on: after a damaged frame (bad magic, length, CRC, header, or an input ending inside
     * it) at the next offset where a whole frame with a matching CRC starts, the skipped byte range
     * being named in the problem; after a bad block or record at the next record, block or frame
     * (a record using an undefined id, e.g. after a lost registry frame, is skipped alone); after a
     * bad stream header at the next segment. The registry keeps the definitions read so far.
     * Recovery mode also checks the frame sequence (gaps, duplicates, which are skipped, and
     * frames out of order) and, at the end, the trailer's count of data records written against
     * the data records read. {@link #next()} then throws only when the file system fails.
     *
     * @return this reader
     */
    public SondeReader recover(ProblemHandler handler) {
        ProblemHandler counting = p -> {
            problemCount++;
            handler.problem(p);
        };
        this.problems = counting;
        frames.recover(counting);
        records.recover(counting);
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
            while (!records.next()) {
                if (!frames.nextDataFrame()) {
                    end = frames.end();
                    checkTrailer();
                    return false;
                }
                records.start(frames.frame(), frames.source());
            }
            delivered++;
            if (Format.isDataRecord(records.type())) {
                dataRecords++;
            }
            return true;
        } catch (FormatException e) {
            end = new ReadEnd(ReadEnd.Kind.ERROR, e.source(), e.offset(), e.getMessage(), e);
            stop();
            throw e;
        } catch (IOException e) {
            end = new ReadEnd(ReadEnd.Kind.ERROR, frames.source(), frames.inputOffset(), frames.source() + ": " + e, e);
            stop();
            throw e;
        }
    }

    /** Recovery mode: the trailer's count of data records written must be the count read. */
    private void checkTrailer() {
        Trailer t = frames.trailer();
        if (problems == null || t == null || t.written() == dataRecords) {
            return;
        }
        long written = t.written();
        String difference = Long.compareUnsigned(written, dataRecords) > 0
                ? (written - dataRecords) + " missing or unreadable"
                : (dataRecords - written) + " more read than written";
        problems.problem(new FormatException(end.source(), frames.trailerOffset(), FormatProblem.TRAILER_MISMATCH,
                "trailer says " + Long.toUnsignedString(written) + " records written, " + dataRecords + " read: " + difference));
    }

    private void stop() {
        records.clear();
        frames.close();
    }

    // =============================================================== the current record (see RecordView)

    @Override
    public byte type() {
        return records.type();
    }

    @Override
    public long threadId() {
        return records.threadId();
    }

    @Override
    public String threadName() {
        return records.threadName();
    }

    @Override
    public int probeId() {
        return records.probeId();
    }

    @Override
    public String probeName() {
        return records.probeName();
    }

    @Override
    public String probeSignature() {
        return records.probeSignature();
    }

    @Override
    public long time() {
        return records.time();
    }

    @Override
    public long wallTime() {
        return records.wallTime();
    }

    @Override
    public boolean hasCpuTime() {
        return records.hasCpuTime();
    }

    @Override
    public long cpuTime() {
        return records.cpuTime();
    }

    @Override
    public boolean isExceptionExit() {
        return records.isExceptionExit();
    }

    @Override
    public int exceptionStringId() {
        return records.exceptionStringId();
    }

    @Override
    public String exceptionClass() {
        return records.exceptionClass();
    }

    @Override
    public int eventTypeId() {
        return records.eventTypeId();
    }

    @Override
    public EventType eventType() {
        return records.eventType();
    }

    @Override
    public boolean fieldBoolean(int index) {
        return records.fieldBoolean(index);
    }

    @Override
    public int fieldInt(int index) {
        return records.fieldInt(index);
    }

    @Override
    public long fieldLong(int index) {
        return records.fieldLong(index);
    }

    @Override
    public double fieldDouble(int index) {
        return records.fieldDouble(index);
    }

    @Override
    public int fieldStringId(int index) {
        return records.fieldStringId(index);
    }

    @Override
    public String fieldString(int index) {
        return records.fieldString(index);
    }

    @Override
    public Object fieldValue(int index) {
        return records.fieldValue(index);
    }

    @Override
    public long traceId() {
        return records.traceId();
    }

    @Override
    public long parentTraceId() {
        return records.parentTraceId();
    }

    @Override
    public int parentOrderIndex() {
        return records.parentOrderIndex();
    }

    @Override
    public boolean hasHandoffTime() {
        return records.hasHandoffTime();
    }

    @Override
    public long handoffTime() {
        return records.handoffTime();
    }

    @Override
    public long gapCount() {
        return records.gapCount();
    }

    @Override
    public long definedId() {
        return records.definedId();
    }

    @Override
    public String definedName() {
        return records.definedName();
    }

    /** Absolute byte offset of the current record in {@link #source()}. */
    @Override
    public long recordOffset() {
        return records.recordOffset();
    }

    // =============================================================== the stream

    /** The file (or stream name) the current record, or the last frame, came from. */
    public String source() {
        return frames.source();
    }

    /** Header of the frame holding the current record (or of the last frame read). */
    public FrameHeader frame() {
        FrameHeader frame = frames.frame();
        if (frame == null) {
            throw new IllegalStateException("no frame read yet");
        }
        return frame;
    }

    /** The agent id of the stream (from its first frame), or null before the first frame. */
    public UUID agentId() {
        return frames.agentId();
    }

    /** Definitions seen so far. */
    @Override
    public Registry registry() {
        return records.registry();
    }

    /** The trailer's counters once the TRAILER frame has been read, else null. */
    public Trailer trailer() {
        return frames.trailer();
    }

    /** Where and why reading stopped, or null while records may still follow. */
    public ReadEnd end() {
        return end;
    }

    /** Number of frames read so far. */
    public long framesRead() {
        return frames.framesRead();
    }

    /**
     * Frames known to be missing: the sum of the gaps in the frame sequence numbers seen so far
     * (frames a TCP connection lost when it broke, or a segment file that is not there). 0 for a
     * whole stream.
     */
    public long missingFrames() {
        return frames.missingFrames();
    }

    /**
     * Segments read so far that ended inside a frame, without SEGMENT_END, with another segment
     * after them: a receiver killed while it wrote that frame. Reading goes on with the next
     * segment; the torn frame shows as a missing sequence number or comes again there.
     */
    public int tornSegments() {
        return frames.tornSegments();
    }

    /** Data records (ENTER ... EVENT, types 0x01..0x07) delivered so far. */
    public long dataRecordsRead() {
        return dataRecords;
    }

    /** Problems read past so far (recovery mode; 0 otherwise). */
    public long problemCount() {
        return problemCount;
    }

    /** Number of records delivered so far. */
    public long recordsRead() {
        return delivered;
    }

    @Override
    public void close() {
        stop();
        if (end == null) {
            end = new ReadEnd(ReadEnd.Kind.INCOMPLETE, frames.source(), 0, "closed before the end", null);
        }
    }
}
