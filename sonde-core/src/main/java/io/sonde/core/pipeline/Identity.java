package io.sonde.core.pipeline;

import java.net.InetAddress;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * Who writes the stream and with which clocks: agent id, host name, process id, and the clocks
 * stamped into frame headers. Real values by default; tests inject fixed ones to get
 * deterministic bytes.
 */
public final class Identity {
    final UUID agentId;
    final String host;
    final long pid;
    final LongSupplier wallNanos;
    final LongSupplier monoNanos;

    public Identity(UUID agentId, String host, long pid, LongSupplier wallNanos, LongSupplier monoNanos) {
        this.agentId = agentId;
        this.host = host;
        this.pid = pid;
        this.wallNanos = wallNanos;
        this.monoNanos = monoNanos;
    }

    /** This process: the given agent id, the local host name, the real pid and clocks. */
    public static Identity of(UUID agentId) {
        return new Identity(agentId, localHostName(), ProcessHandle.current().pid(), Identity::wallClockNanos,
                System::nanoTime);
    }

    public UUID agentId() {
        return agentId;
    }

    static long wallClockNanos() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    static String localHostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) return env;
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "unknown";
        }
    }
}
