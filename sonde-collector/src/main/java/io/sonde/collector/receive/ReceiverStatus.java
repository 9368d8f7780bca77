package io.sonde.collector.receive;

import java.util.Map;
import java.util.UUID;

/**
 * A snapshot of a receiver's counters.
 *
 * @param openConnections connections being served now
 * @param totalConnections connections accepted since start (refused ones included)
 * @param failedConnections connections closed because of bad input, an exceeded limit or an I/O error
 * @param refusedConnections connections closed at once because max-connections were being served
 * @param agents per agent: connections, frames, bytes and sequence numbers stored
 */
public record ReceiverStatus(int openConnections, long totalConnections, long failedConnections, long refusedConnections,
        Map<UUID, AgentStatus> agents) {

    /**
     * Counters of one agent over all its connections to this receiver.
     *
     * @param connections connections of this agent that sent at least one frame
     * @param frames whole frames stored
     * @param bytes frame bytes stored (stream headers not counted)
     * @param firstSequence lowest frame sequence number received (-1 if none); above 0 when earlier
     *     frames went elsewhere (an earlier receiver run) or were lost
     * @param lastSequence highest frame sequence number received (-1 if none)
     * @param missingFrames sequence numbers between first and last that never arrived: frames lost
     *     when a connection broke, and frames the writer re-sent under a new number after a
     *     reconnect (it cannot know whether the first copy arrived; one per reconnect at most)
     * @param trailer true if the agent's TRAILER frame arrived (it closed cleanly)
     */
    public record AgentStatus(long connections, long frames, long bytes, long firstSequence, long lastSequence, long missingFrames,
            boolean trailer) {

        /** One line: "2 connections, 120 frames, 4096 bytes, sequences 0..119, none missing, trailer received". */
        public String describe() {
            String s = connections + " connections, " + frames + " frames, " + bytes + " bytes, sequences " + firstSequence + ".." + lastSequence
                    + ", " + StreamSummary.gaps(missingFrames, 0) + ", " + (trailer ? "trailer received" : "no trailer");
            if (trailer && (missingFrames > 0 || firstSequence > 0)) {
                s += " (a gap is a frame lost in flight, or one the writer re-sent under a new number after reconnecting:"
                        + " compare the trailer's written count with the records read)";
            }
            return s;
        }
    }
}
