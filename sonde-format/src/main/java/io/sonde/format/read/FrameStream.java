package io.sonde.format.read;

import io.sonde.format.Format;
import io.sonde.format.RecordLayout.SegmentEndPayload;
import java.io.IOException;
import java.util.List;
import java.util.UUID;

/**
 * The frame level of one agent's stream: opens its segments in order, reads their frames through
 * a {@link FrameInput} (magic, length, CRC, header checks), and checks what spans frames and
 * segments: one agent per stream, nothing after TRAILER or SEGMENT_END, the segment a
 * SEGMENT_END names comes next, no segment after the trailer, gaps in the sequence numbers.
 * TRAILER and SEGMENT_END frames are consumed here; {@link #nextDataFrame()} hands out the DATA
 * and COMPRESSED frames, whose records a {@link RecordCursor} decodes (expanding COMPRESSED ones).
 */
final class FrameStream {
    private final List<SegmentSource> segments;

    private int segmentIndex = -1;
    private FrameInput input;
    private String source = "";
    private FrameHeader frame;
    private boolean hasAgent;
    private long agentMsb;
    private long agentLsb;
    /** Set by a SEGMENT_END frame: the index of the segment that must follow, else -1. */
    private int nextSegmentIndex = -1;
    private boolean segmentEnded;
    /** Segments that ended inside a frame, with a segment after them (a killed receiver's). */
    private int tornTails;
    private long frames;
    private long lastSequence = -1;
    private long missingFrames;
    /** Length and stored CRC of the last frame accepted: a repeat of both with its number is a duplicate. */
    private int lastLength;
    private int lastCrc;
    private Trailer trailer;
    private long trailerOffset = -1;
    /** Where problems go in recovery mode; null: the first problem is thrown. */
    private ProblemHandler problems;
    /** How the stream ended without error, once it has. */
    private ReadEnd end;

    FrameStream(List<SegmentSource> segments) {
        this.segments = segments;
    }

    /**
     * Reads past damage from now on: each problem goes to {@code handler} and reading goes on at the
     * next valid frame (or segment), instead of stopping with a {@link FormatException}.
     */
    void recover(ProblemHandler handler) {
        this.problems = handler;
    }

    /**
     * Throws the problem, or (in recovery mode) hands it to the handler with what the reader does
     * about it ({@code recovery}, e.g. "skipped") and returns.
     */
    private void report(FormatException problem, String recovery) throws FormatException {
        if (problems == null) {
            throw problem;
        }
        problems.problem(new FormatException(problem.source(), problem.offset(), problem.problem(), problem.detail() + "; " + recovery));
    }

    /**
     * Moves to the next DATA frame (handling TRAILER, SEGMENT_END and segment changes). Returns
     * false at the end of the stream; {@link #end()} then says how it ended.
     */
    boolean nextDataFrame() throws IOException {
        while (true) {
            if (input == null && !openNextSegment()) {
                return false;
            }
            if (!nextFrame()) {
                long at = input.endOfLastFrame();
                close();
                if (trailer != null) {
                    if (segmentIndex + 1 < segments.size()) {
                        // recovery: the segments after the trailer are left unread
                        report(new FormatException(segments.get(segmentIndex + 1).name(), 0, FormatProblem.BAD_SEGMENTS,
                                "segment follows the segment holding the trailer (" + source + ")"),
                                (segments.size() - segmentIndex - 1) + " segment(s) after the trailer not read");
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
            if (!accept(h)) {
                continue;
            }
            frame = h;
            switch (h.type()) {
                case Format.FRAME_DATA:
                case Format.FRAME_COMPRESSED: // expanded by the RecordCursor
                    return true;
                case Format.FRAME_TRAILER:
                    readTrailer(h);
                    break;
                case Format.FRAME_SEGMENT_END:
                    readSegmentEnd(h);
                    break;
                default:
                    break; // a frame type of a later minor version (FrameInput allowed it): skip
            }
        }
    }

    /**
     * The next whole, valid frame of the current segment; in recovery mode damaged bytes are
     * skipped. A segment that ends inside a frame, without SEGMENT_END, with another segment after
     * it, ends there: a receiver killed while it wrote that frame (docs/format.md, section 7); the
     * frame is lost there (a gap in the sequence numbers) or comes again in a later segment.
     */
    private boolean nextFrame() throws IOException {
        while (true) {
            try {
                return input.nextFrame();
            } catch (FormatException e) {
                if (e.problem() == FormatProblem.TRUNCATED && !segmentEnded && segmentIndex + 1 < segments.size()) {
                    tornTails++;
                    return false;
                }
                if (problems == null) {
                    throw e;
                }
                long from = input.frameOffset();
                long to = input.skipToNextFrame();
                boolean found = input.midFrame(); // a verified frame waits in the buffer
                // the problem is placed at the start of the skipped range, where the damage begins
                problems.problem(new FormatException(e.source(), from, e.problem(), e.detail()
                        + (e.offset() != from ? " (detected at offset " + e.offset() + ")" : "") + "; skipped bytes " + from + ".." + to
                        + " (" + (to - from) + " bytes) to " + (found ? "the next valid frame" : "the end of the input")));
            }
        }
    }

    /**
     * The checks of a frame against the stream so far: agent, position (not after TRAILER or
     * SEGMENT_END), sequence number. Returns false for a frame to skip (recovery mode only).
     */
    private boolean accept(FrameHeader h) throws FormatException {
        long offset = h.offset();
        if (trailer != null || segmentEnded) {
            report(new FormatException(source, offset, FormatProblem.UNEXPECTED_FRAME,
                    "frame after the " + (trailer != null ? "TRAILER" : "SEGMENT_END") + " frame"), "skipped");
            return false;
        }
        if (!hasAgent) {
            hasAgent = true;
            agentMsb = h.agentMostSignificantBits();
            agentLsb = h.agentLeastSignificantBits();
        } else if (agentMsb != h.agentMostSignificantBits() || agentLsb != h.agentLeastSignificantBits()) {
            report(new FormatException(source, offset + Format.FRAME_OFF_AGENT_MSB, FormatProblem.AGENT_CHANGED,
                    "frame of agent " + h.agentId() + " in the stream of agent " + new UUID(agentMsb, agentLsb)), "skipped");
            return false;
        }
        if (io.sonde.format.stream.DeliveryProtocol.isRepeat(h.flags())) {
            // a repeated registry frame (2.2, start of a reconnection) carries the number of the frame
            // before it, not one of its own: not a gap, a reorder or a duplicate
            return true;
        }
        long sequence = h.sequence();
        int crc = LittleEndian.i32(h.bytes(), Format.FRAME_OFF_CRC);
        if (lastSequence >= 0 && problems != null) {
            long at = offset + Format.FRAME_OFF_SEQUENCE;
            if (sequence == lastSequence && h.length() == lastLength && crc == lastCrc) {
                // same number, length and CRC-32C: a copy of the previous frame (stored twice)
                problems.problem(new FormatException(source, at, FormatProblem.DUPLICATE_FRAME,
                        "frame " + sequence + " repeats the previous frame (same sequence number, length and CRC); the copy is skipped"));
                return false;
            }
            if (Long.compareUnsigned(sequence, lastSequence) <= 0) {
                problems.problem(new FormatException(source, at, FormatProblem.REORDERED_FRAME,
                        "frame sequence " + Long.toUnsignedString(sequence) + " after " + Long.toUnsignedString(lastSequence)
                                + (sequence == lastSequence ? " (number reused with other content)" : " (out of order)")));
            }
        }
        if (lastSequence >= 0 && Long.compareUnsigned(sequence, lastSequence) > 0 && sequence - lastSequence > 1) {
            long gap = sequence - lastSequence - 1;
            missingFrames += gap;
            if (problems != null) {
                problems.problem(new FormatException(source, offset + Format.FRAME_OFF_SEQUENCE, FormatProblem.SEQUENCE_GAP,
                        Long.toUnsignedString(gap) + " frame" + (gap == 1 ? "" : "s") + " missing (sequence jumps from "
                                + Long.toUnsignedString(lastSequence) + " to " + Long.toUnsignedString(sequence)
                                + "; possibly a frame re-sent under a new number)"));
            }
        }
        frames++;
        if (lastSequence < 0 || Long.compareUnsigned(sequence, lastSequence) > 0) {
            lastSequence = sequence;
        }
        lastLength = h.length();
        lastCrc = crc;
        return true;
    }

    private void readTrailer(FrameHeader h) throws FormatException {
        try {
            trailer = Trailer.decode(h, source);
            trailerOffset = h.offset();
        } catch (FormatException e) {
            report(e, "the TRAILER is ignored");
        }
    }

    private void readSegmentEnd(FrameHeader h) throws FormatException {
        int p = h.headerLength();
        int payload = h.length() - p;
        if (payload < SegmentEndPayload.LENGTH) {
            report(new FormatException(source, h.offset() + p, FormatProblem.UNEXPECTED_FRAME,
                    "SEGMENT_END payload has " + payload + " bytes, needs " + SegmentEndPayload.LENGTH), "ignored");
            return;
        }
        long next = LittleEndian.u32(h.bytes(), p + SegmentEndPayload.NEXT_SEGMENT_INDEX);
        if (next > SegmentEndPayload.MAX_SEGMENT_INDEX) {
            report(new FormatException(source, h.offset() + p + SegmentEndPayload.NEXT_SEGMENT_INDEX, FormatProblem.BAD_VALUE,
                    "SEGMENT_END names segment index " + next), "ignored");
            return;
        }
        nextSegmentIndex = (int) next;
        segmentEnded = true;
    }

    private boolean openNextSegment() throws IOException {
        while (true) {
            if (segmentIndex + 1 >= segments.size()) {
                if (segmentIndex < 0) {
                    end = new ReadEnd(ReadEnd.Kind.INCOMPLETE, source, 0, "no input", null);
                } else {
                    // recovery: the last segment had no readable stream header
                    end = new ReadEnd(ReadEnd.Kind.INCOMPLETE, source, 0, "stream ended without trailer (last segment unreadable)", null);
                }
                return false;
            }
            SegmentSource next = segments.get(segmentIndex + 1);
            if (segmentEnded && next.index() >= 0 && next.index() != nextSegmentIndex) {
                report(new FormatException(next.name(), 0, FormatProblem.BAD_SEGMENTS,
                        "expected segment " + String.format("%06d", nextSegmentIndex) + " (named by SEGMENT_END in " + source
                                + "), found segment " + String.format("%06d", next.index())), "read on with it");
            }
            segmentIndex++;
            source = next.name();
            segmentEnded = false;
            nextSegmentIndex = -1;
            input = new FrameInput(next.open(), source);
            try {
                if (input.readStreamHeader()) {
                    return true;
                }
                report(new FormatException(source, 0, FormatProblem.TRUNCATED, "empty input: no stream header"), "segment skipped");
            } catch (FormatException e) {
                // a bad stream header: not a Sonde stream, or one this reader cannot read; no resynchronising into it
                report(e, "segment skipped");
            }
            close();
        }
    }

    /** Closes the current segment's input (a close failure after reading cannot lose data). */
    void close() {
        if (input != null) {
            try {
                input.close();
            } catch (IOException ignored) {
                // nothing was lost: every frame was read before
            }
            input = null;
        }
    }

    /** The bytes of the current frame, [0, {@code frame().length()}). */
    byte[] frameBytes() {
        return frame.bytes();
    }

    /** Header of the current DATA frame, or of the last frame read; null before the first frame. */
    FrameHeader frame() {
        return frame;
    }

    /** The file (or stream name) the current frame came from. */
    String source() {
        return source;
    }

    /** Absolute offset of the frame being read (for messages about an I/O failure). */
    long inputOffset() {
        return input == null ? 0 : input.frameOffset();
    }

    UUID agentId() {
        return hasAgent ? new UUID(agentMsb, agentLsb) : null;
    }

    Trailer trailer() {
        return trailer;
    }

    /** Absolute offset of the TRAILER frame in its segment, or -1. */
    long trailerOffset() {
        return trailerOffset;
    }

    /** How the stream ended (COMPLETE or INCOMPLETE) once {@link #nextDataFrame()} returned false, else null. */
    ReadEnd end() {
        return end;
    }

    long framesRead() {
        return frames;
    }

    long missingFrames() {
        return missingFrames;
    }

    int tornSegments() {
        return tornTails;
    }
}
