package io.sonde.collector.receive;

import java.util.Map;
import java.util.UUID;

/**
 * A snapshot of a receiver's counters.
 *
 * @param openConnections connections being served now
 * @param totalConnections connections accepted since start
 * @param failedConnections connections closed because of bad input or I/O errors
 * @param agents per agent: connections, frames and bytes stored
 */
public record ReceiverStatus(int openConnections, long totalConnections, long failedConnections, Map<UUID, AgentStatus> agents) {

    /**
     * Counters of one agent.
     *
     * @param connections connections of this agent that sent at least one frame
     * @param frames whole frames stored
     * @param bytes frame bytes stored (stream headers not counted)
     */
    public record AgentStatus(long connections, long frames, long bytes) {}
}
