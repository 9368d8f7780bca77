package io.sonde.cli;

import io.sonde.collector.receive.ReceiverLimits;
import io.sonde.format.stream.TokenFile;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * Where a receiving command listens and the limits it holds every peer to: the options that
 * {@code sonde receive} and {@code sonde collector} share (a picocli mixin).
 */
final class ListenOptions {

    // required, but checked in address(): sonde collector --kafka-consume listens on no port
    @Option(names = "--port", paramLabel = "N", description = "TCP port to listen on (0: any free port, printed at start).")
    Integer port;

    @Option(names = "--bind", paramLabel = "ADDR", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}, loopback only).")
    String bind;

    @Option(names = "--max-connections", paramLabel = "N", defaultValue = "" + ReceiverLimits.DEFAULT_MAX_CONNECTIONS,
            description = "Connections served at once, one thread each; more are closed unread (default: ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(names = "--max-frame-bytes", paramLabel = "N", defaultValue = "" + ReceiverLimits.DEFAULT_MAX_FRAME_BYTES,
            description = "Largest frame accepted, so the most a connection buffers; a connection declaring more is closed (default: ${DEFAULT-VALUE}).")
    int maxFrameBytes;

    @Option(names = "--max-agents", paramLabel = "N", defaultValue = "" + ReceiverLimits.DEFAULT_MAX_AGENTS,
            description = "Distinct agents (folders) stored; connections of further agents are closed (default: ${DEFAULT-VALUE}).")
    int maxAgents;

    @Option(names = "--idle-timeout", paramLabel = "SECONDS", defaultValue = "300",
            description = "Close a connection that sends nothing for this long; fractions allowed (default: ${DEFAULT-VALUE}).")
    double idleTimeoutSeconds;

    @Option(names = "--token-file", paramLabel = "F",
            description = "File holding the token agents must present (owner-only, chmod 600); agents send it with tcp.token.file."
                    + " Without it any agent that reaches the port is taken.")
    Path tokenFile;

    /** The token agents must present, or null without --token-file; a user error when the file is unreadable or not private. */
    String token() {
        if (tokenFile == null) {
            return null;
        }
        try {
            return TokenFile.read(tokenFile);
        } catch (IllegalArgumentException | UncheckedIOException e) {
            throw new UserError("--token-file: " + e.getMessage());
        }
    }

    /** The address and port to listen on; a usage error when either is invalid. */
    InetSocketAddress address() {
        if (port == null) {
            throw new UsageError("Missing required option: '--port=N'");
        }
        if (port < 0 || port > 65535) {
            throw new UsageError("--port must be between 0 and 65535, got " + port);
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(bind), port);
        } catch (UnknownHostException e) {
            throw new UsageError("--bind: unknown address '" + bind + "'");
        }
    }

    /** The limits given; a usage error when one is out of range. */
    ReceiverLimits limits() {
        try {
            if (!(idleTimeoutSeconds > 0) || idleTimeoutSeconds > 1e9) {
                throw new IllegalArgumentException("idle-timeout must be positive, got " + idleTimeoutSeconds);
            }
            return new ReceiverLimits(maxConnections, maxFrameBytes, maxAgents,
                    Duration.ofNanos(Math.max(1_000_000, (long) (idleTimeoutSeconds * 1e9))));
        } catch (IllegalArgumentException e) {
            throw new UsageError("--" + e.getMessage());
        }
    }

    /** The warning to print when the address is not loopback, else null. */
    String exposureWarning(String what, int boundPort) {
        return exposureWarning(what, boundPort, false);
    }

    /** The warning to print when the address is not loopback, else null; {@code encrypted}: the port serves TLS. */
    String exposureWarning(String what, int boundPort, boolean encrypted) {
        if (address().getAddress().isLoopbackAddress()) {
            return null;
        }
        if (tokenFile != null && encrypted) {
            return null;
        }
        if (tokenFile != null) {
            return "warning: the " + what + " on " + bind + ":" + boundPort + " checks the token but does not encrypt:"
                    + " the token and the data cross the network in the clear";
        }
        return "warning: the " + what + " has no authentication" + (encrypted ? " (TLS encrypts, but takes any client)" : "")
                + ": anyone who can reach " + bind + ":" + boundPort
                + " can send data to be stored (up to " + maxAgents + " agent folders); give --token-file, or bind to 127.0.0.1"
                + " unless the network is trusted";
    }
}
