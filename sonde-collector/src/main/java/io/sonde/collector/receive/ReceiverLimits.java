package io.sonde.collector.receive;

import io.sonde.format.Format;
import java.time.Duration;

/**
 * What one receiver accepts at most. A peer that would exceed a limit is told so in the log (one
 * line naming the peer, its agent when known, and the limit) and its connection is closed; the
 * other connections are not affected. The names in messages are those of {@code sonde receive}'s
 * options.
 *
 * <ul>
 *   <li>{@code max-connections}: connections served at once (one thread each); a connection
 *       beyond it is closed as soon as it is accepted.
 *   <li>{@code max-frame-bytes}: the largest frame a connection may send. A frame declaring more is
 *       rejected at its length field, before its bytes arrive, so each connection buffers at most
 *       this much (and only as much as has actually arrived).
 *   <li>{@code max-agents}: distinct agent ids (folders) this receiver stores; a connection of a
 *       new agent beyond it is closed at its first frame. Agents already served stay welcome.
 *   <li>{@code idle-timeout}: a connection that sends no byte for this long is closed.
 * </ul>
 *
 * @param maxConnections at least 1
 * @param maxFrameBytes between {@link Format#FRAME_FIXED_HEADER_BYTES} and {@link Format#MAX_FRAME_BYTES}
 * @param maxAgents at least 1
 * @param idleTimeout positive
 */
public record ReceiverLimits(int maxConnections, int maxFrameBytes, int maxAgents, Duration idleTimeout) {
    /** Default of {@link #maxConnections()}. */
    public static final int DEFAULT_MAX_CONNECTIONS = 64;
    /** Default of {@link #maxFrameBytes()}: 16 MiB, the largest {@code frame.bytes} an agent may be configured with. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 16 << 20;
    /** Default of {@link #maxAgents()}. */
    public static final int DEFAULT_MAX_AGENTS = 1000;
    /** Default of {@link #idleTimeout()}. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(5);

    public ReceiverLimits {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("max-connections must be at least 1, got " + maxConnections);
        }
        if (maxFrameBytes < Format.FRAME_FIXED_HEADER_BYTES || maxFrameBytes > Format.MAX_FRAME_BYTES) {
            throw new IllegalArgumentException("max-frame-bytes must be between " + Format.FRAME_FIXED_HEADER_BYTES + " and "
                    + Format.MAX_FRAME_BYTES + " (the format's limit), got " + maxFrameBytes);
        }
        if (maxAgents < 1) {
            throw new IllegalArgumentException("max-agents must be at least 1, got " + maxAgents);
        }
        if (idleTimeout == null || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idle-timeout must be positive, got " + idleTimeout);
        }
    }

    /** 64 connections, 16 MiB frames, 1000 agents, 5 minutes idle. */
    public static ReceiverLimits defaults() {
        return new ReceiverLimits(DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_AGENTS, DEFAULT_IDLE_TIMEOUT);
    }

    public ReceiverLimits withMaxConnections(int n) {
        return new ReceiverLimits(n, maxFrameBytes, maxAgents, idleTimeout);
    }

    public ReceiverLimits withMaxFrameBytes(int n) {
        return new ReceiverLimits(maxConnections, n, maxAgents, idleTimeout);
    }

    public ReceiverLimits withMaxAgents(int n) {
        return new ReceiverLimits(maxConnections, maxFrameBytes, n, idleTimeout);
    }

    public ReceiverLimits withIdleTimeout(Duration d) {
        return new ReceiverLimits(maxConnections, maxFrameBytes, maxAgents, d);
    }

    @Override
    public String toString() {
        return "max-connections " + maxConnections + ", max-frame-bytes " + maxFrameBytes + ", max-agents " + maxAgents + ", idle-timeout "
                + seconds(idleTimeout);
    }

    /** A duration in seconds for messages ("300 s", "0.25 s"). */
    static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + " s" : (ms / 1000.0) + " s";
    }
}
