package io.sonde.cli;

import io.sonde.collector.archive.Archive;
import io.sonde.collector.receive.Receiver;
import io.sonde.collector.receive.ReceiverLimits;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.collector.receive.ReceiverStatus;
import io.sonde.collector.receive.StreamSummary;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sonde receive --port N --out DIR [--bind ADDR] [limits]}: accepts TCP writers and stores
 * their frames unchanged, one folder per agent, one segment file per connection; prints one line
 * per connection opened, closed, failed or refused; runs until Ctrl-C / SIGTERM, then stops
 * gracefully and prints what each agent delivered (frames, sequence gaps, trailer).
 */
@Command(name = "receive", mixinStandardHelpOptions = true, description = "Accepts TCP writers and stores what arrives as binary files, one set per agent.")
public final class ReceiveCommand implements Callable<Integer> {

    @Option(names = "--port", required = true, paramLabel = "N", description = "TCP port to listen on (0: any free port, printed at start).")
    int port;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Folder to store into: DIR/<agent-id>/sonde-<agent-id>-<NNNNNN>.sonde.")
    Path out;

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

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535) {
            throw new UsageError("--port must be between 0 and 65535, got " + port);
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new UsageError("--bind: unknown address '" + bind + "'");
        }
        ReceiverLimits limits;
        try {
            if (!(idleTimeoutSeconds > 0) || idleTimeoutSeconds > 1e9) {
                throw new IllegalArgumentException("idle-timeout must be positive, got " + idleTimeoutSeconds);
            }
            limits = new ReceiverLimits(maxConnections, maxFrameBytes, maxAgents, Duration.ofNanos(Math.max(1_000_000, (long) (idleTimeoutSeconds * 1e9))));
        } catch (IllegalArgumentException e) {
            throw new UserError("--" + e.getMessage());
        }
        Archive archive;
        try {
            archive = new Archive(out);
        } catch (IOException e) {
            throw new UserError("--out: cannot create folder " + out + ": " + e.getMessage());
        }
        PrintWriter stdout = spec.commandLine().getOut();
        Receiver receiver;
        try {
            receiver = Receiver.start(new InetSocketAddress(address, port), archive, printing(stdout), limits);
        } catch (IOException e) {
            throw new UserError("cannot listen on " + bind + ":" + port + ": " + e.getMessage());
        }
        print(stdout, "listening on " + receiver.address().getAddress().getHostAddress() + ":" + receiver.port() + ", storing into " + out
                + " (Ctrl-C to stop)");
        if (!address.isLoopbackAddress()) {
            print(stdout, "warning: the receiver has no authentication yet: anyone who can reach " + bind + ":" + receiver.port()
                    + " can send data to be stored (up to " + maxAgents + " agent folders); bind to 127.0.0.1 unless the network is trusted");
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            receiver.stop();
            ReceiverStatus st = receiver.status();
            long frames = st.agents().values().stream().mapToLong(ReceiverStatus.AgentStatus::frames).sum();
            long bytes = st.agents().values().stream().mapToLong(ReceiverStatus.AgentStatus::bytes).sum();
            print(stdout, "stopped: " + st.totalConnections() + " connections (" + st.failedConnections() + " failed), " + st.agents().size()
                    + " agents, " + frames + " frames, " + bytes + " bytes" + (st.refusedConnections() == 0 ? "" : ", " + st.refusedConnections()
                    + " connections refused (max-connections)"));
            st.agents().forEach((id, a) -> print(stdout, "agent " + id + ": " + a.describe()));
            stopped.countDown();
        }, "sonde-receive-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        stopped.await();
        return 0;
    }

    private static synchronized void print(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }

    static ReceiverListener printing(PrintWriter out) {
        return new ReceiverListener() {
            @Override
            public void opened(String peer) {
                print(out, "opened " + peer);
            }

            @Override
            public void closed(String peer, StreamSummary s) {
                print(out, "closed " + peer + ": " + s.describe() + (s.target() == null ? "" : " -> " + s.target()));
            }

            @Override
            public void failed(String peer, long offset, String problem, StreamSummary s) {
                print(out, "failed " + peer + " at offset " + offset + ": " + problem + (s.agentId() == null ? ""
                        : " (" + s.describe() + (s.target() == null ? "" : "; whole frames kept in " + s.target()) + ")"));
            }

            @Override
            public void refused(String peer, String reason) {
                print(out, "refused " + peer + ": " + reason);
            }
        };
    }
}
