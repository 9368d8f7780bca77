package io.sonde.cli;

import io.sonde.collector.archive.Archive;
import io.sonde.collector.archive.HeldSequences;
import io.sonde.collector.receive.Delivery;
import io.sonde.collector.receive.Receiver;
import io.sonde.collector.receive.ReceiverLimits;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.collector.receive.ReceiverStatus;
import io.sonde.collector.receive.StreamSummary;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
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

    @CommandLine.Mixin
    ListenOptions listen = new ListenOptions();

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Folder to store into: DIR/<agent-id>/sonde-<agent-id>-<NNNNNN>.sonde.")
    Path out;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        InetSocketAddress address = listen.address();
        ReceiverLimits limits = listen.limits();
        Archive archive;
        try {
            archive = new Archive(out);
        } catch (IOException e) {
            throw new UserError("--out: cannot create folder " + out + ": " + e.getMessage());
        }
        String token = listen.token();
        PrintWriter stdout = spec.commandLine().getOut();
        Receiver receiver;
        try {
            // what the folder holds from earlier runs: frames agents re-send after a restart are duplicates
            Delivery delivery = new Delivery(token, HeldSequences.recover(out));
            receiver = Receiver.start(address, archive, printing(stdout, spec.commandLine().getErr()), limits, delivery);
        } catch (IOException e) {
            throw new UserError("cannot listen on " + listen.bind + ":" + listen.port + ": " + e.getMessage());
        }
        print(stdout, "listening on " + receiver.address().getAddress().getHostAddress() + ":" + receiver.port() + ", storing into " + out
                + " (Ctrl-C to stop)");
        String warning = listen.exposureWarning("receiver", receiver.port());
        if (warning != null) {
            print(stdout, warning);
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

    /** Prints connection events to {@code out}; refusals and notices (lost frames) also to {@code err}. */
    static ReceiverListener printing(PrintWriter out, PrintWriter err) {
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
                if (problem.startsWith("refused")) {
                    print(err, "sonde: " + peer + " " + problem);
                }
                print(out, "failed " + peer + " at offset " + offset + ": " + problem + (s.agentId() == null ? ""
                        : " (" + s.describe() + (s.target() == null ? "" : "; whole frames kept in " + s.target()) + ")"));
            }

            @Override
            public void refused(String peer, String reason) {
                print(out, "refused " + peer + ": " + reason);
            }

            @Override
            public void notice(String peer, String message) {
                print(out, "notice " + peer + ": " + message);
                print(err, "sonde: " + peer + ": " + message);
            }
        };
    }
}
