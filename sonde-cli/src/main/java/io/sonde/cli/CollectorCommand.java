package io.sonde.cli;

import io.sonde.collector.Collector;
import io.sonde.collector.database.ArchiveDatabase;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerSet;
import io.sonde.collector.handler.HandlerStatus;
import io.sonde.collector.metrics.MetricsHandler;
import io.sonde.collector.naming.AgentInfo;
import io.sonde.collector.otlp.OtlpHandler;
import io.sonde.collector.receive.ReceiverLimits;
import io.sonde.collector.receive.ReceiverStatus;
import io.sonde.dashboard.server.DashboardServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sonde collector --port N --out DIR [--token-file F] [--http PORT]}: the long-running
 * collector. Accepts agent streams like {@code sonde receive} and runs data handlers on them
 * (default: the archive's segment files and its database {@code DIR/archive.db}); at SIGTERM or
 * Ctrl-C it stops at frame boundaries, drains every handler's queue, commits the database and
 * prints the totals, each handler's counters and every agent that connected.
 */
@Command(name = "collector", mixinStandardHelpOptions = true,
        description = "Runs the collector: accepts agent streams, archives them (segment files and archive.db) and runs data handlers.")
public final class CollectorCommand implements Callable<Integer> {

    @CommandLine.Mixin
    ListenOptions listen = new ListenOptions();

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "The archive: DIR/<agent-id>/sonde-<agent-id>-<NNNNNN>.sonde and DIR/archive.db.")
    Path out;

    @Option(names = "--handlers", paramLabel = "LIST", split = ",", defaultValue = "archive,database",
            description = "Data handlers to run, in order (default: ${DEFAULT-VALUE}); built in: archive, database, decode-count, metrics, otlp; more via ServiceLoader plug-ins.")
    List<String> handlers;

    @Option(names = "--database-url", paramLabel = "JDBC-URL",
            description = "Database of the database handler (default: SQLite DIR/archive.db), e.g. jdbc:postgresql://db:5432/sonde?user=sonde.")
    String databaseUrl;

    @Option(names = "--option", paramLabel = "KEY=VALUE", description = "A handler option (repeatable), e.g. queue.frames=16384, queue.mib=64.")
    Map<String, String> options = new LinkedHashMap<>();

    @Option(names = "--otlp", paramLabel = "URL",
            description = "Export every execution live as an OTLP span (OTLP/HTTP protobuf) to URL, e.g. http://127.0.0.1:4318/v1/traces: runs the otlp handler (options otlp.*, docs/collector.md).")
    String otlp;

    @Option(names = "--http", paramLabel = "PORT", description = "Port of the web dashboard (agents, and the pages over the archive; docs/dashboard.md).")
    Integer http;

    @Option(names = "--observe-port", paramLabel = "PORT",
            description = "Serve the agents this collector knows on an observe endpoint on 127.0.0.1:PORT (0: any free port) for sonde ls/get/watch; needs --token-file (its token).")
    Integer observePort;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        InetSocketAddress address = listen.address();
        ReceiverLimits limits = listen.limits();
        if (http != null && (http < 0 || http > 65535)) {
            throw new UsageError("--http must be between 0 and 65535, got " + http);
        }
        String token = listen.token();
        if (observePort != null && (observePort < 0 || observePort > 65535)) {
            throw new UsageError("--observe-port must be between 0 and 65535, got " + observePort);
        }
        if (observePort != null && token == null) {
            throw new UsageError("--observe-port needs --token-file: observers present the same token as agents");
        }
        List<DataHandler> chosen;
        try {
            chosen = HandlerSet.byName(handlers);
        } catch (IllegalArgumentException e) {
            throw new UsageError("--handlers: " + e.getMessage());
        }
        // with --http, /metrics serves per-operation counts: the metrics handler runs unless listed already
        MetricsHandler metrics = http == null ? null : chosen.stream().filter(MetricsHandler.class::isInstance).map(MetricsHandler.class::cast)
                .findFirst().orElseGet(() -> {
                    MetricsHandler m = new MetricsHandler();
                    chosen.add(m);
                    return m;
                });
        Map<String, String> opts = new LinkedHashMap<>(options);
        if (otlp != null) {
            opts.put("otlp.url", otlp);
            if (chosen.stream().noneMatch(h -> h.name().equals(OtlpHandler.NAME))) {
                chosen.add(new OtlpHandler());
            }
        }
        if (databaseUrl != null) {
            opts.put("database.url", databaseUrl);
        }
        PrintWriter stdout = spec.commandLine().getOut();
        Collector collector;
        try {
            collector = Collector.start(new Collector.Settings(address, out, chosen, opts, limits, token),
                    ReceiveCommand.printing(stdout, spec.commandLine().getErr()), line -> print(stdout, line));
        } catch (IllegalArgumentException e) {
            throw new UsageError("--option: " + e.getMessage());
        } catch (IOException e) {
            throw new UserError("cannot start on " + listen.bind + ":" + listen.port + " storing into " + out + ": " + e.getMessage());
        }
        print(stdout, "collector listening on " + collector.address().getAddress().getHostAddress() + ":" + collector.port() + ", archive " + out
                + ", handlers " + String.join(", ", handlers) + (handlers.contains("database") ? " (database " + (databaseUrl != null
                ? databaseUrl.replaceAll("password=[^&]*", "password=***") : out.resolve(ArchiveDatabase.FILE_NAME).toString()) + ")" : "")
                + " (Ctrl-C to stop)");
        DashboardServer dashboard = http == null ? null : DashboardCommand.serveCollector(new InetSocketAddress(address.getAddress(), http), out, collector, metrics);
        if (dashboard != null) {
            print(stdout, "dashboard at http://" + collector.address().getAddress().getHostAddress() + ":" + dashboard.port() + "/");
        }
        if (observePort != null) {
            startNaming(collector, token, stdout);
        }
        String warning = listen.exposureWarning("collector", collector.port());
        if (warning != null) {
            print(stdout, warning);
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            if (dashboard != null) dashboard.close();
            collector.stop();
            for (String line : summary(collector)) {
                print(stdout, line);
            }
            stopped.countDown();
        }, "sonde-collector-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        stopped.await();
        return 0;
    }

    /** Serves the agents on the observe endpoint; a port that cannot be bound stops the collector again. */
    private void startNaming(Collector collector, String token, PrintWriter stdout) {
        try {
            int port = collector.observe(io.sonde.api.live.ObserveOptions.of(observePort, token)).port();
            print(stdout, "agents served on observe endpoint 127.0.0.1:" + port + " (sonde ls 127.0.0.1:" + port + "/agents --token-file "
                    + listen.tokenFile + " --values)");
        } catch (RuntimeException e) {
            collector.stop();
            throw new UserError("cannot serve the agents on observe port " + observePort + ": " + e.getMessage());
        }
    }

    /** The lines printed at the end: totals, handlers, agents. */
    static List<String> summary(Collector c) {
        List<String> lines = new ArrayList<>();
        ReceiverStatus st = c.receiverStatus();
        long frames = st.agents().values().stream().mapToLong(ReceiverStatus.AgentStatus::frames).sum();
        long bytes = st.agents().values().stream().mapToLong(ReceiverStatus.AgentStatus::bytes).sum();
        lines.add("stopped: " + st.totalConnections() + " connections (" + st.failedConnections() + " failed), " + st.agents().size() + " agents, "
                + frames + " frames, " + bytes + " bytes" + (c.drained() ? ", every handler queue drained" : ", NOT every handler queue drained"));
        for (HandlerStatus h : c.handlerStatus()) {
            lines.add("handler " + h.describe());
        }
        for (AgentInfo a : c.agents()) {
            ReceiverStatus.AgentStatus s = st.agents().get(a.agentId());
            lines.add(a.describe() + (s == null ? "" : "; " + s.describe()));
        }
        return lines;
    }

    private static synchronized void print(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }
}
