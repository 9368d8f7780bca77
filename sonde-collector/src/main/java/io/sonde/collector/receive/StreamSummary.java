package io.sonde.collector.receive;

import java.util.UUID;

/**
 * What one connection delivered, as the receiver saw it. The receiver cannot know what the agent
 * believes it sent (a TCP write returns once the bytes are in the agent's kernel), so this is the
 * receiving side's account: gaps in the frame sequence numbers are frames the agent sealed but
 * the receiver never got (or, one per reconnect at most, a frame the writer re-sent under a new
 * number), and a TRAILER whose counts include lost frames does not make the stream whole.
 *
 * @param agentId null if the connection ended before its first frame
 * @param frames whole, checked frames stored
 * @param bytes their bytes (stream header not counted)
 * @param firstSequence sequence number of the first frame, -1 if none
 * @param lastSequence sequence number of the last frame, -1 if none
 * @param missingFrames frames missing between first and last: the sum of the gaps in the sequence numbers
 * @param outOfOrderFrames frames whose sequence number was not above the previous one (never from a correct writer)
 * @param trailer true if the agent's TRAILER frame (its clean close) arrived on this connection
 * @param target where the frames went (null if none), e.g. the segment file
 * @param duplicateFrames frames of an acknowledged (2.2) stream dropped because their number was held already (re-sent after a reconnect)
 */
public record StreamSummary(UUID agentId, long frames, long bytes, long firstSequence, long lastSequence, long missingFrames,
        long outOfOrderFrames, boolean trailer, String target, long duplicateFrames) {

    /** A summary without duplicates (a 2.0 stream). */
    public StreamSummary(UUID agentId, long frames, long bytes, long firstSequence, long lastSequence, long missingFrames,
            long outOfOrderFrames, boolean trailer, String target) {
        this(agentId, frames, bytes, firstSequence, lastSequence, missingFrames, outOfOrderFrames, trailer, target, 0);
    }

    /** True if frames arrived, with no gap and nothing out of order. */
    public boolean gapless() {
        return missingFrames == 0 && outOfOrderFrames == 0;
    }

    /** One line: "agent …, 12 frames, 3456 bytes, sequences 0..11, none missing, trailer received". */
    public String describe() {
        if (agentId == null) {
            return "no frames";
        }
        if (frames == 0) {
            return "agent " + agentId + ", no frames stored";
        }
        return "agent " + agentId + ", " + frames + " frames, " + bytes + " bytes, sequences " + firstSequence + ".." + lastSequence + ", "
                + gaps(missingFrames, outOfOrderFrames) + (duplicateFrames > 0 ? ", " + duplicateFrames + " duplicate frames dropped" : "")
                + ", " + (trailer ? "trailer received" : "no trailer");
    }

    /** "none missing", "3 frames missing (sequence gaps)", plus out-of-order frames if any. */
    static String gaps(long missing, long outOfOrder) {
        String s = missing == 0 ? "none missing" : missing + " frames missing (sequence gaps)";
        return outOfOrder == 0 ? s : s + ", " + outOfOrder + " frames out of order";
    }
}
