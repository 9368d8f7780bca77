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
 * frames, whose records a {@link RecordCursor} decodes.
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
    private long frames;
    private long lastSequence = -1;
    private long missingFrames;
    private Trailer trailer;
    /** How the stream ended without error, once it has. */
    private ReadEnd end;

    FrameStream(List<SegmentSource> segments) {
        this.segments = segments;
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
            if (!input.nextFrame()) {
                long at = input.endOfLastFrame();
                close();
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
            frame = h;
            switch (h.type()) {
                case Format.FRAME_DATA:
                    return true;
                case Format.FRAME_TRAILER:
                    trailer = Trailer.decode(h, source);
                    break;
                case Format.FRAME_SEGMENT_END:
                    readSegmentEnd(h);
                    break;
                default:
                    break; // a frame type of a later minor version (FrameInput allowed it): skip
            }
        }
    }

    private void readSegmentEnd(FrameHeader h) throws FormatException {
        int p = h.headerLength();
        int payload = h.length() - p;
        if (payload < SegmentEndPayload.LENGTH) {
            throw new FormatException(source, h.offset() + p, FormatProblem.UNEXPECTED_FRAME,
                    "SEGMENT_END payload has " + payload + " bytes, needs " + SegmentEndPayload.LENGTH);
        }
        long next = LittleEndian.u32(h.bytes(), p + SegmentEndPayload.NEXT_SEGMENT_INDEX);
        if (next > SegmentEndPayload.MAX_SEGMENT_INDEX) {
            throw new FormatException(source, h.offset() + p + SegmentEndPayload.NEXT_SEGMENT_INDEX, FormatProblem.BAD_VALUE,
                    "SEGMENT_END names segment index " + next);
        }
        nextSegmentIndex = (int) next;
        segmentEnded = true;
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
}
