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
import io.sonde.core.live.observe.TlsContexts;
import io.sonde.cli.live.ObserveOptions;
import io.sonde.dashboard.live.LiveLink;
import io.sonde.collector.operations.LiveOperationsHandler;
import io.sonde.dashboard.live.RelayedLiveLink;
import io.sonde.dashboard.server.DashboardServer;
import io.sonde.format.stream.TokenFile;
import io.sonde.kafka.publish.KafkaPublishHandler;
import io.sonde.observer.ObserverClient;
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
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

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

    @Option(names = "--agent-token-file", paramLabel = "F",
            description = "File holding the token of the agents' observe endpoints (owner-only, chmod 600): with it, observers on --observe-port"
                    + " reach an agent's own live objects through the collector (sonde ls HOST:PORT --agent ID). Simplest: the agents'"
                    + " observe.token.file.")
    Path agentTokenFile;

    @Option(names = "--agent-trust-store", paramLabel = "FILE",
            description = "Trust store (PKCS12 or JKS) with the certificates (or their CA) of agents whose observe endpoint serves TLS"
                    + " (observe.tls.key.store): the relay dials them with TLS and checks that each certificate names the host the agent"
                    + " announced. Default: the JVM's default trust store. With --agent-token-file.")
    Path agentTrustStore;

    @Option(names = "--agent-trust-store-password-file", paramLabel = "FILE",
            description = "File holding --agent-trust-store's password (owner-only, chmod 600).")
    Path agentTrustStorePasswordFile;

    @Option(names = "--tls-key-store", paramLabel = "FILE",
            description = "Key store (PKCS12 or JKS) of the collector's key pair and certificate: agents connect with TLS (tcp.tls=on), and"
                    + " --observe-port serves TLS on --bind too. Required for a --bind address that is not loopback.")
    Path tlsKeyStore;

    @Option(names = "--tls-password-file", paramLabel = "FILE",
            description = "File holding the key store's password (owner-only, chmod 600); with --tls-key-store.")
    Path tlsPasswordFile;

    @Option(names = "--kafka-publish", paramLabel = "BOOTSTRAP",
            description = "Also publish every received frame, undecoded, to Kafka (HOST:PORT[,...]) on --topic: the kafka handler (docs/kafka.md).")
    String kafkaPublish;

    @Option(names = "--kafka-consume", paramLabel = "BOOTSTRAP",
            description = "Instead of listening for agents, consume --topic from Kafka (HOST:PORT[,...]) as a member of --group and run the handlers on"
                    + " its frames; the group's collectors share one --out folder (docs/kafka.md).")
    String kafkaConsume;

    @Option(names = "--topic", paramLabel = "T", defaultValue = KafkaPublishHandler.DEFAULT_TOPIC,
            description = "Kafka topic of --kafka-publish and --kafka-consume (default: ${DEFAULT-VALUE}).")
    String topic;

    @Option(names = "--group", paramLabel = "G", defaultValue = "sonde-archivers",
            description = "Consumer group of --kafka-consume (default: ${DEFAULT-VALUE}).")
    String group;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        if (kafkaConsume != null) {
            return KafkaConsumeMode.run(this);
        }
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
        if (agentTokenFile != null && observePort == null) {
            throw new UsageError("--agent-token-file needs --observe-port: observers reach agents through the collector's observe endpoint");
        }
        if ((agentTrustStore != null || agentTrustStorePasswordFile != null) && agentTokenFile == null) {
            throw new UsageError("--agent-trust-store needs --agent-token-file: it is the trust of the relay to the agents");
        }
        String agentToken = agentTokenFile == null ? null : secret("--agent-token-file", agentTokenFile);
        SSLContext agentTls = ObserveOptions.trust("--agent-trust-store", agentTrustStore, agentTrustStorePasswordFile);
        SSLContext tls = tls();
        try {
            TlsContexts.requireTls("collector", listen.bind, address.getAddress(), tls != null);
        } catch (IllegalArgumentException e) {
            throw new UsageError("--bind: " + e.getMessage() + " (give --tls-key-store and --tls-password-file)");
        }
        if (kafkaPublish != null && !handlers.contains(KafkaPublishHandler.NAME)) {
            handlers = new ArrayList<>(handlers);
            handlers.add(KafkaPublishHandler.NAME);
        }
        List<DataHandler> chosen = chosenHandlers();
        // with --http, /metrics serves per-operation counts: the metrics handler runs unless listed already
        MetricsHandler metrics = http == null ? null : chosen.stream().filter(MetricsHandler.class::isInstance).map(MetricsHandler.class::cast)
                .findFirst().orElseGet(() -> {
                    MetricsHandler m = new MetricsHandler();
                    chosen.add(m);
                    return m;
                });
        // with --http, the agents page shows records/s and drops per agent: one more (queued) handler counts them
        AgentRecordCounter records = http == null ? null : new AgentRecordCounter();
        if (records != null) chosen.add(records);
        // with --http, the operations page's live range: per-operation aggregates on a queued handler of their own
        LiveOperationsHandler liveOperations = http == null ? null : new LiveOperationsHandler();
        if (liveOperations != null) chosen.add(liveOperations);
        Map<String, String> opts = handlerOptions();
        if (otlp != null) {
            opts.put("otlp.url", otlp);
            if (chosen.stream().noneMatch(h -> h.name().equals(OtlpHandler.NAME))) {
                chosen.add(new OtlpHandler());
            }
        }
        PrintWriter stdout = spec.commandLine().getOut();
        Collector collector;
        try {
            collector = Collector.start(new Collector.Settings(address, out, chosen, opts, limits, token, tls),
                    ReceiveCommand.printing(stdout, spec.commandLine().getErr()), line -> print(stdout, line));
        } catch (IllegalArgumentException e) {
            throw new UsageError("--option: " + e.getMessage());
        } catch (IOException e) {
            throw new UserError("cannot start on " + listen.bind + ":" + listen.port + " storing into " + out + ": " + e.getMessage());
        }
        print(stdout, "collector listening on " + collector.address().getAddress().getHostAddress() + ":" + collector.port() + ", archive " + out
                + ", handlers " + handlerList(collector.handlerStatus()) + " (Ctrl-C to stop)");
        int namingPort = observePort == null ? -1 : startNaming(collector, token, agentToken, agentTls, stdout);
        DashboardServer dashboard = http == null ? null : DashboardCommand.serveCollector(new InetSocketAddress(address.getAddress(), http), out, collector, metrics,
                records, liveOperations, liveLink(collector, namingPort, token, agentToken));
        if (dashboard != null) {
            print(stdout, "dashboard at http://" + collector.address().getAddress().getHostAddress() + ":" + dashboard.port() + "/"
                    + (namingPort >= 0 && agentToken != null ? " (live pages through the relay)" : ""));
        }
        String warning = listen.exposureWarning("collector", collector.port(), tls != null);
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

    /**
     * The start-up line's handler list: every handler the collector runs, in order, whether named by
     * --handlers or added by an option (--http: metrics, dashboard-records and live-operations; --otlp; --kafka-publish);
     * the database handler with its database (password hidden), a handler that failed to open with its state.
     */
    String handlerList(List<HandlerStatus> running) {
        List<String> names = new ArrayList<>();
        for (HandlerStatus h : running) {
            String name = h.name();
            if (name.equals("database")) {
                name += " (database " + (databaseUrl != null ? databaseUrl.replaceAll("password=[^&]*", "password=***")
                        : out.resolve(ArchiveDatabase.FILE_NAME).toString()) + ")";
            }
            names.add(h.state().equals("running") ? name : name + " (" + h.state() + ")");
        }
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    /** The handlers --handlers names, new instances; a usage error for an unknown one. */
    List<DataHandler> chosenHandlers() {
        try {
            return HandlerSet.byName(handlers);
        } catch (IllegalArgumentException e) {
            throw new UsageError("--handlers: " + e.getMessage());
        }
    }

    /** The handler options: --option, --database-url, and the Kafka ones. */
    Map<String, String> handlerOptions() {
        Map<String, String> opts = new LinkedHashMap<>(options);
        if (databaseUrl != null) {
            opts.put("database.url", databaseUrl);
        }
        if (kafkaPublish != null) {
            opts.put("kafka.bootstrap", kafkaPublish);
        }
        opts.put("kafka.topic", topic);
        return opts;
    }

    /** A secret from an owner-only file, or a user error naming the option. */
    private static String secret(String option, Path file) {
        try {
            return TokenFile.read(file);
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            throw new UserError(option + ": " + e.getMessage());
        }
    }

    /** The data port's TLS context from --tls-key-store and --tls-password-file, or null without them. */
    private SSLContext tls() {
        if (tlsKeyStore == null && tlsPasswordFile == null) return null;
        if (tlsKeyStore == null || tlsPasswordFile == null) {
            throw new UsageError("--tls-key-store and --tls-password-file go together");
        }
        try {
            return TlsContexts.server(tlsKeyStore, tlsPasswordFile, "collector");
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            throw new UserError(e.getMessage());
        }
    }

    /**
     * Serves the agents on the observe endpoint (on --bind with TLS when the data port has TLS, else on
     * 127.0.0.1); a port that cannot be bound stops the collector again.
     */
    private int startNaming(Collector collector, String token, String agentToken, SSLContext agentTls, PrintWriter stdout) {
        try {
            io.sonde.api.live.ObserveOptions o = io.sonde.api.live.ObserveOptions.of(observePort, token);
            if (tlsKeyStore != null) o = o.bind(listen.bind).tls(tlsKeyStore, tlsPasswordFile);
            int port = collector.observe(o, agentToken, agentTls).port();
            String host = namingHost();
            print(stdout, "agents served on observe endpoint " + host + ":" + port + (tlsKeyStore != null ? " (TLS)" : "") + " (sonde ls "
                    + host + ":" + port + "/agents --token-file " + listen.tokenFile + " --values"
                    + (agentToken != null ? "; an agent's own objects: --agent ID" : "") + ")");
            return port;
        } catch (RuntimeException e) {
            collector.stop();
            throw new UserError("cannot serve the agents on observe port " + observePort + ": " + e.getMessage());
        }
    }

    /** The host of the collector's observe endpoint: --bind with TLS, else 127.0.0.1. */
    private String namingHost() {
        return tlsKeyStore != null ? listen.bind : "127.0.0.1";
    }

    /**
     * The dashboard's way to the agents' live objects: the collector's own relay on its observe
     * endpoint, for agents that announced an observe endpoint; null (no live pages, the page says so)
     * without --observe-port and --agent-token-file. With TLS the dashboard connects as a TLS client
     * that trusts exactly the collector's own certificate (--tls-key-store), on --bind (127.0.0.1 for a
     * wildcard bind).
     */
    private LiveLink liveLink(Collector collector, int namingPort, String token, String agentToken) {
        if (namingPort < 0 || agentToken == null) return null;
        SSLContext own = tlsKeyStore == null ? null : TlsContexts.pinnedTo(tlsKeyStore, tlsPasswordFile, "collector");
        String bound = namingHost();
        String host = bound.equals("0.0.0.0") || bound.equals("::") ? "127.0.0.1" : bound;
        return new RelayedLiveLink(
                () -> collector.agents().stream().filter(a -> a.observe() != null && AgentInfo.CONNECTED.equals(a.status()))
                        .map(a -> a.agentId().toString()).toList(),
                // a token typed in the page is checked by the collector; without one the page reads with the collector's
                (agent, typed, observer) -> ObserverClient.connectRelayed(host, namingPort, typed == null ? token : typed, agent, observer, own),
                "Whoever holds the collector's token (" + listen.tokenFile + ") may switch probes and suspend sensors, through the collector's relay.");
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

    static synchronized void print(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }
}
