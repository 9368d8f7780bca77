package io.sonde.cli;

import io.sonde.collector.archive.Archive;
import io.sonde.collector.receive.Receiver;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.collector.receive.ReceiverStatus;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sonde receive --port N --out DIR [--bind ADDR]}: accepts TCP writers and stores their
 * frames unchanged, one folder per agent, one segment file per connection; prints one line per
 * connection opened, closed or failed; runs until Ctrl-C / SIGTERM, then stops gracefully.
 */
@Command(name = "receive", mixinStandardHelpOptions = true, description = "Accepts TCP writers and stores what arrives as binary files, one set per agent.")
public final class ReceiveCommand implements Callable<Integer> {

    @Option(names = "--port", required = true, paramLabel = "N", description = "TCP port to listen on (0: any free port, printed at start).")
    int port;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Folder to store into: DIR/<agent-id>/sonde-<agent-id>-<NNNNNN>.sonde.")
    Path out;

    @Option(names = "--bind", paramLabel = "ADDR", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}, loopback only).")
    String bind;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535) {
            throw new UserError("--port must be between 0 and 65535, got " + port);
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new UserError("--bind: unknown address '" + bind + "'");
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
            receiver = Receiver.start(new InetSocketAddress(address, port), archive, printing(stdout));
        } catch (IOException e) {
            throw new UserError("cannot listen on " + bind + ":" + port + ": " + e.getMessage());
        }
        print(stdout, "listening on " + receiver.address().getAddress().getHostAddress() + ":" + receiver.port() + ", storing into " + out
                + " (Ctrl-C to stop)");
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            receiver.stop();
            ReceiverStatus st = receiver.status();
            long frames = st.agents().values().stream().mapToLong(ReceiverStatus.AgentStatus::frames).sum();
            long bytes = st.agents().values().stream().mapToLong(ReceiverStatus.AgentStatus::bytes).sum();
            print(stdout, "stopped: " + st.totalConnections() + " connections (" + st.failedConnections() + " failed), " + st.agents().size()
                    + " agents, " + frames + " frames, " + bytes + " bytes");
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
            public void closed(String peer, UUID agentId, long frames, long bytes, String target) {
                print(out, "closed " + peer + (agentId == null ? ": no frames" : ": agent " + agentId + ", " + frames + " frames, " + bytes + " bytes -> " + target));
            }

            @Override
            public void failed(String peer, long offset, String problem, UUID agentId, long frames, String target) {
                print(out, "failed " + peer + " at offset " + offset + ": " + problem
                        + (target == null ? "" : " (" + frames + " whole frames kept in " + target + ")"));
            }
        };
    }
}
