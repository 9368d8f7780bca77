package io.sonde.collector.naming;

import io.sonde.format.stream.ObserveEndpoint;
import java.time.Instant;
import java.util.UUID;

/**
 * What the collector knows of one agent.
 *
 * @param agentId the agent's id (from its frames)
 * @param host host name the agent reports
 * @param pid process id the agent reports
 * @param firstSeenMillis when its first connection delivered a frame, ms since the epoch
 * @param lastSeenMillis when it last delivered a frame or disconnected, ms since the epoch
 * @param status {@link #CONNECTED} while a connection of it is open, else {@link #DISCONNECTED}
 * @param connections connections of it since the collector started
 * @param frames frames received from it since the collector started
 * @param observe where its observe endpoint listens, as its latest HELLO announced it (format 2.3), or null if it announced none
 */
public record AgentInfo(UUID agentId, String host, long pid, long firstSeenMillis, long lastSeenMillis, String status, long connections,
        long frames, ObserveEndpoint observe) {
    public static final String CONNECTED = "connected";
    public static final String DISCONNECTED = "disconnected";

    /** One line: "agent 1b4e… on shop-1 pid 4242: disconnected, first seen …, last seen …, 2 connections". */
    public String describe() {
        return "agent " + agentId + " on " + host + " pid " + pid + ": " + status + ", first seen " + Instant.ofEpochMilli(firstSeenMillis)
                + ", last seen " + Instant.ofEpochMilli(lastSeenMillis) + ", " + connections + (connections == 1 ? " connection" : " connections")
                + (observe == null ? "" : ", observe endpoint " + observe);
    }
}
