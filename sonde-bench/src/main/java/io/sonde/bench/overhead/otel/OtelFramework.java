package io.sonde.bench.overhead.otel;

import io.sonde.bench.overhead.Phase;
import io.sonde.bench.overhead.framework.ArtifactCache;
import io.sonde.bench.overhead.framework.Framework;
import io.sonde.bench.overhead.framework.RecordCount;
import io.sonde.bench.overhead.framework.RunContext;
import io.sonde.bench.overhead.framework.RunSetup;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The OpenTelemetry Java agent 2.x with its methods instrumentation on the benchmarked method and
 * every other instrumentation off. deactivated = the method instrumented, sampler
 * {@code always_off}; discard = sampled spans, traces exporter {@code none}; tcp = the OTLP
 * exporter (http/protobuf) to a counting receiver on 127.0.0.1 with the agent's default batch
 * span processor (whose queue drops spans when full: the output says how many arrived). The agent
 * has no binary file exporter, so phase {@code file} is not run.
 */
public final class OtelFramework implements Framework {

    /** The agent release benchmarked. */
    public static final String VERSION = "2.33.1";
    static final String METHOD = "io.sonde.bench.overhead.app.MonitoredClass[monitoredMethod]";
    static final String SPAN_NAME = "MonitoredClass.monitoredMethod";

    private final ArtifactCache cache;
    private java.nio.file.Path agent;

    /** The OpenTelemetry agent, fetched through {@code cache}. */
    public OtelFramework(ArtifactCache cache) {
        this.cache = cache;
    }

    @Override
    public String name() {
        return "otel";
    }

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public void prepare() throws IOException {
        agent = cache.jar("io.opentelemetry.javaagent", "opentelemetry-javaagent", VERSION, null);
    }

    @Override
    public String unsupported(Phase phase) {
        return phase == Phase.FILE ? "the OpenTelemetry Java agent has no binary file exporter" : null;
    }

    @Override
    public RunSetup setup(Phase phase, RunContext context) throws IOException {
        List<String> options = new ArrayList<>(List.of(
                "-javaagent:" + agent,
                "-Dotel.instrumentation.common.default-enabled=false",
                "-Dotel.instrumentation.methods.enabled=true",
                "-Dotel.instrumentation.methods.include=" + METHOD,
                "-Dotel.metrics.exporter=none",
                "-Dotel.logs.exporter=none",
                "-Dotel.service.name=overhead-bench",
                "-Dotel.javaagent.logging=none"));
        switch (phase) {
            case DEACTIVATED -> {
                options.add("-Dotel.traces.sampler=always_off");
                options.add("-Dotel.traces.exporter=none");
                return RunSetup.of(options, Map.of(), RecordCount.unknown("sampler always_off: no spans are exported"));
            }
            case DISCARD -> {
                options.add("-Dotel.traces.exporter=none");
                return RunSetup.of(options, Map.of(), RecordCount.unknown("traces exporter none: spans are dropped"));
            }
            case TCP -> {
                OtlpHttpSink sink = new OtlpHttpSink(SPAN_NAME);
                options.add("-Dotel.traces.exporter=otlp");
                options.add("-Dotel.exporter.otlp.traces.protocol=http/protobuf");
                options.add("-Dotel.exporter.otlp.traces.endpoint=" + sink.tracesEndpoint());
                return new RunSetup() {
                    @Override
                    public List<String> jvmOptions() {
                        return options;
                    }

                    @Override
                    public RecordCount countRecords() {
                        List<String> problems = sink.problems();
                        String note = "spans that arrived at the OTLP receiver; the agent's batch span processor drops spans when its queue is full";
                        if (!problems.isEmpty()) {
                            note += "; decode problems: " + String.join("; ", problems);
                        }
                        return new RecordCount(sink.spans(), note);
                    }

                    @Override
                    public void close() {
                        sink.close();
                    }
                };
            }
            default -> throw new IllegalArgumentException("phase " + phase.label() + " has no OpenTelemetry setup");
        }
    }
}
