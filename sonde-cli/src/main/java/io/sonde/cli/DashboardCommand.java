package io.sonde.cli;

import io.sonde.analysis.correction.ProbeCost;
import io.sonde.dashboard.log.RecordedLog;
import io.sonde.collector.Collector;
import io.sonde.collector.operations.LiveOperationsHandler;
import io.sonde.collector.metrics.CollectorMetrics;
import io.sonde.collector.metrics.MetricsHandler;
import io.sonde.collector.naming.AgentInfo;
import io.sonde.collector.receive.ReceiverStatus;
import io.sonde.cli.live.ObserveAddress;
import io.sonde.cli.live.ObserveOptions;
import io.sonde.cli.live.TrustStoreOptions;
import io.sonde.dashboard.live.DirectLiveLink;
import io.sonde.dashboard.live.LiveLink;
import io.sonde.dashboard.server.Api;
import io.sonde.dashboard.server.CollectorApi;
import io.sonde.dashboard.server.DashboardServer;
import io.sonde.dashboard.server.LiveOnlyApi;
import io.sonde.dashboard.server.LogApi;
import io.sonde.format.observe.ObserveProtocol;
import io.sonde.observer.ObserveException;
import io.sonde.observer.ObserverClient;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import javax.net.ssl.SSLContext;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sonde dashboard [LOGDIR] --port N [--bind ADDR] [--probe-cost W[,C]] [--observe HOST:PORT
 * --token-file F]}: reads a recorded log once with sonde-analysis and serves the web dashboard for
 * it (operations, traces, what-if), and with {@code --observe} the live and probes pages of a
 * running agent, until Ctrl-C or SIGTERM. See docs/dashboard.md.
 */
@Command(name = "dashboard", mixinStandardHelpOptions = true,
        description = "Serves the web dashboard for a recorded log: operations, traces with call trees, what-if predictions.")
public final class DashboardCommand implements Callable<Integer> {

    @Parameters(arity = "0..*", paramLabel = "LOGDIR", description = "Log files, an agent's folder, or a folder of agents (as for sonde analyze); "
            + "may be left out with --observe.")
    List<Path> inputs;

    @Option(names = "--observe", paramLabel = "HOST:PORT",
            description = "The observe endpoint of a running agent (observe=on) or of ./sonde demo --live: the live and probes pages watch it.")
    String observe;

    @Option(names = "--token-file", paramLabel = "FILE", description = "With --observe: the endpoint's token file (owner-only, chmod 600).")
    Path tokenFile;

    /** With --observe: TLS to the endpoint. */
    @Mixin
    TrustStoreOptions tlsTrust = new TrustStoreOptions();

    @Option(names = "--port", required = true, paramLabel = "N", description = "HTTP port to serve on (0: any free port, printed at start).")
    int port;

    @Option(names = "--bind", paramLabel = "ADDR", defaultValue = "127.0.0.1", description = "Address to serve on (default: ${DEFAULT-VALUE}, loopback only).")
    String bind;

    @Option(names = "--probe-cost", paramLabel = "WALL_NS[,CPU_NS]",
            description = "Perturbation correction with this cost per probe pair (as sonde analyze --probe-cost); call trees show corrected and measured times.")
    String probeCost;

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535) throw new UsageError("--port must be between 0 and 65535, got " + port);
        InetSocketAddress address;
        try {
            address = new InetSocketAddress(InetAddress.getByName(bind), port);
        } catch (UnknownHostException e) {
            throw new UsageError("--bind: unknown address '" + bind + "'");
        }
        ProbeCost cost = probeCost == null ? ProbeCost.NONE : AnalyzeCommand.parseProbeCost(probeCost);
        boolean noLog = inputs == null || inputs.isEmpty();
        if (noLog && observe == null) throw new UsageError("give a LOGDIR, or --observe HOST:PORT --token-file F to watch a live agent");
        if (observe == null && tokenFile != null) throw new UsageError("--token-file goes with --observe");
        if (observe == null && tlsTrust.given()) {
            throw new UsageError("--tls-trust-store goes with --observe");
        }
        if (noLog && probeCost != null) throw new UsageError("--probe-cost needs a LOGDIR");
        DirectLiveLink live = observe == null ? null : liveLink();
        PrintStream out = System.out;
        Api api;
        if (noLog) {
            api = new LiveOnlyApi();
        } else {
            long t0 = System.nanoTime();
            RecordedLog log;
            try {
                log = RecordedLog.open(inputs, cost);
            } catch (IOException e) {
                throw new UserError(e.getMessage());
            }
            out.printf(Locale.ROOT, "read %d executions of %d operations, %d requests, in %.1f s%s%n", log.result().counters().executions,
                    log.result().statistics().all().size(), log.index().seen(), (System.nanoTime() - t0) / 1e9,
                    log.result().partial() ? " (PARTIAL: some input could not be read; the pages list the problems)" : "");
            api = new LogApi(log);
        }
        DashboardServer server;
        try {
            server = DashboardServer.start(address, api, null, live);
        } catch (IOException e) {
            throw new UserError(e.getMessage());
        }
        if (live != null) out.println("watching " + live.name() + " (live and probes pages)");
        String host = address.getAddress().isAnyLocalAddress() ? "127.0.0.1" : address.getAddress().getHostAddress();
        if (host.contains(":")) host = "[" + host + "]";
        out.println("dashboard at http://" + host + ":" + server.port() + "/ (Ctrl-C to stop)");
        if (!address.getAddress().isLoopbackAddress()) {
            out.println("warning: the dashboard has no authentication: anyone who can reach " + bind + ":" + server.port()
                    + " can read this log's operation names, traces and timings; bind to 127.0.0.1 unless the network is trusted");
        }
        out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "sonde-dashboard-shutdown"));
        stopped.await();
        return 0;
    }

    /**
     * The link to {@code --observe}: the token read with the endpoint's rules, and one connection
     * made at start so a wrong address or token fails here with a clear message, not in the page.
     */
    private DirectLiveLink liveLink() {
        if (tokenFile == null) throw new UsageError("--observe needs --token-file F (the endpoint's token file)");
        ObserveAddress address = ObserveAddress.parse(observe, false);
        String token = ObserveOptions.readToken(tokenFile);
        SSLContext tls = tlsTrust.context();
        DirectLiveLink link = new DirectLiveLink(address.host(), address.port(), token, tokenFile.toString(), tls);
        try (ObserverClient probe = link.connect(link.name(), null, (sub, events) -> {})) {
            return link;
        } catch (ObserveException e) {
            throw new UserError("--observe " + address.endpoint() + (e.code() == ObserveProtocol.ERR_BAD_TOKEN ? " refused the token in " + tokenFile : "")
                    + ": " + e.getMessage() + (tls == null && e.code() == 0 ? ObserveOptions.plainHint(e) : ""));
        } catch (IOException e) {
            throw new UserError("--observe: cannot connect to " + address.endpoint() + ": " + e.getMessage()
                    + " (is the process running with its observe endpoint on this port?)" + (tls == null ? ObserveOptions.plainHint(e) : ""));
        }
    }

    /**
     * Serves the dashboard of a running collector ({@code sonde collector --http PORT}): its agents
     * and the pages over its archive.
     *
     * @throws UserError if the address cannot be bound (the collector is closed first)
     */
    /**
     * The collector's dashboard and {@code /metrics}; {@code operations} is its {@code metrics}
     * handler (null if it runs none: then {@code /metrics} has the pipeline's health only);
     * {@code records} counts each agent's records and drops for the agents page (null: not shown);
     * {@code live} reaches the agents' live objects for the live and probes pages (null: none).
     */
    static DashboardServer serveCollector(InetSocketAddress address, Path archive, Collector collector, MetricsHandler operations,
            AgentRecordCounter records, LiveOperationsHandler liveOperations, LiveLink live) {
        Supplier<List<CollectorApi.Agent>> agents = () -> {
            Map<UUID, ReceiverStatus.AgentStatus> received = collector.receiverStatus().agents();
            List<CollectorApi.Agent> out = new ArrayList<>();
            for (AgentInfo a : collector.agents()) {
                ReceiverStatus.AgentStatus r = received.get(a.agentId());
                AgentRecordCounter.Counts c = records == null ? null : records.of(a.agentId());
                long now = System.currentTimeMillis();
                out.add(new CollectorApi.Agent(a.agentId().toString(), a.host(), a.pid(), a.status(), a.connections(), a.firstSeenMillis(),
                        a.lastSeenMillis(), r == null ? 0 : r.frames(), r == null ? 0 : r.bytes(), r == null ? 0 : r.missingFrames(),
                        c == null ? (records == null ? -1 : 0) : c.records().total(), c == null ? null : c.records().perSecond(now),
                        c == null ? (records == null ? -1 : 0) : c.dropped().total(), c == null ? null : c.dropped().perSecond(now)));
            }
            return out;
        };
        try {
            return DashboardServer.start(address, new CollectorApi(archive, agents, ProbeCost.NONE),
                    new CollectorMetrics(collector, operations)::render, live, liveOperations == null ? null : liveOperations.window());
        } catch (IOException e) {
            collector.close();
            throw new UserError("--http: " + e.getMessage());
        }
    }
}
