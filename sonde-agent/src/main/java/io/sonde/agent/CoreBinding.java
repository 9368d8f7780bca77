package io.sonde.agent;

import io.sonde.agent.config.AgentOptions;
import io.sonde.agent.instrument.ProbeCatalog;
import io.sonde.agent.pattern.ThreadFilter;
import io.sonde.api.Sonde;
import io.sonde.core.config.ConfigException;
import io.sonde.core.config.ConfigKey;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.live.ObserveStartup;
import io.sonde.core.pipeline.Pipeline;
import io.sonde.core.pipeline.RecordCounts;
import io.sonde.core.probe.ProbeRuntime;
import io.sonde.format.DropReason;
import java.util.List;

/**
 * Connects the agent to the core: starts the pipeline (writer thread, writer, shutdown hook)
 * from the options, and exposes its probe registry and counters.
 */
final class CoreBinding {

    private static volatile Pipeline pipeline;

    private CoreBinding() {}

    /**
     * Starts the core's pipeline with the options' core settings (on top of the core's own
     * sources: {@code sonde.*} system properties and {@code SONDE_*} environment variables).
     * Returns the configuration errors; then nothing was started.
     */
    static List<String> start(AgentOptions options) {
        try {
            Pipeline p = Pipeline.start(SondeConfig.load(options.coreSettings()));
            if (!options.threads().acceptsAll()) {
                ThreadFilter threads = options.threads();
                p.runtime().setThreadFilter(t -> threads.monitors(t.getName()));
            }
            pipeline = p;
            return List.of();
        } catch (ConfigException e) {
            return List.of(e.getMessage());
        } catch (RuntimeException e) {
            return List.of("cannot start the monitor: " + e);
        }
    }

    /**
     * Starts the observe endpoint when the options say {@code observe=on} (on the process-wide live
     * tree, {@code Sonde.live()}), and logs where it listens and where its token is. A failure (port
     * in use, a token file others may read) is logged; monitoring goes on without the endpoint.
     */
    static void startObserve() {
        SondeConfig c = pipeline.config();
        if (!"on".equals(c.get(ConfigKey.OBSERVE).trim())) {
            return;
        }
        try {
            ObserveStartup.Started s = ObserveStartup.start(Sonde.live(), c, pipeline);
            AgentLog.info(s.describe() + "; try: sonde ls " + s.endpoint() + " --token-file " + s.tokenFile().toAbsolutePath()
                    + (s.tls() ? " --tls-trust-store TRUST-STORE" : ""));
        } catch (RuntimeException | LinkageError e) {
            AgentLog.info("observe=on: the observe endpoint did not start, monitoring goes on without it: " + e.getMessage());
        }
    }

    /**
     * Starts the Prometheus endpoint when the options set {@code prometheus.port} (docs/prometheus.md)
     * and logs where it listens; a failure is logged and monitoring goes on without it.
     */
    static void startPrometheus() {
        try {
            io.sonde.core.prometheus.PrometheusEndpoint p = io.sonde.core.live.PrometheusStartup.startIfConfigured(pipeline, Sonde::live);
            if (p != null) {
                AgentLog.info("Prometheus metrics at http://" + p.address().getAddress().getHostAddress() + ":" + p.port() + "/metrics");
            }
        } catch (RuntimeException | LinkageError e) {
            AgentLog.info("prometheus.port: the Prometheus endpoint did not start, monitoring goes on without it: " + e.getMessage());
        }
    }

    /** The core's probe registry as the catalog needs it (only valid after a successful start). */
    static ProbeCatalog.Registry registry() {
        return new ProbeCatalog.Registry() {
            @Override
            public int register(String name, String signature) {
                return pipeline.defineProbe(name, signature);
            }

            @Override
            public void setEnabled(int id, boolean enabled) {
                runtime().setEnabled(id, enabled);
            }

            @Override
            public boolean isEnabled(int id) {
                return runtime().isEnabled(id);
            }
        };
    }

    /** The running pipeline (only valid after a successful start). */
    static Pipeline pipeline() {
        return pipeline;
    }

    private static ProbeRuntime runtime() {
        return pipeline.runtime();
    }

    /** The core's counters as "name=value" lines (empty when the core did not start). */
    static String[] counters() {
        Pipeline p = pipeline;
        if (p == null) {
            return new String[0];
        }
        RecordCounts c = p.counters();
        return new String[] {
            "records.produced=" + c.produced(),
            "records.written=" + c.written(),
            "records.dropped=" + c.dropped(),
            "records.dropped.buffer_full=" + c.dropped(DropReason.BUFFER_FULL),
            "records.dropped.closed=" + c.dropped(DropReason.CLOSED),
            "records.dropped.no_buffer=" + c.dropped(DropReason.NO_BUFFER),
            "records.dropped.writer_failed=" + c.dropped(DropReason.WRITER_FAILED),
        };
    }
}
