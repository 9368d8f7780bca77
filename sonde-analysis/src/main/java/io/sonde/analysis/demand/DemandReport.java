package io.sonde.analysis.demand;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.sonde.analysis.AnalysisResult;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes service demands as JSON, schema {@value #SCHEMA} (documented in docs/analysis.md): per
 * thread group and operation the count, throughput, mean wall time and mean CPU demand, in
 * milliseconds (the unit of the simulator's service demands) and nanoseconds.
 */
public final class DemandReport {
    public static final String SCHEMA = "sonde-demands/1";

    private DemandReport() {}

    public static void write(AnalysisResult r, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            write(r, out);
        }
    }

    public static void write(AnalysisResult r, OutputStream out) throws IOException {
        double seconds = r.observedSeconds();
        try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("schema", SCHEMA);
            g.writeBooleanField("partial", r.partial());
            g.writeNumberField("observedSeconds", seconds);
            g.writeBooleanField("perturbationCorrected", !r.probeCost().isNone());
            g.writeArrayFieldStart("groups");
            for (DemandCollector.GroupDemands gr : r.demands().groups()) {
                g.writeStartObject();
                g.writeStringField("name", gr.name());
                g.writeStringField("threadPattern", gr.pattern());
                g.writeNumberField("threads", gr.threadCount());
                g.writeArrayFieldStart("operations");
                for (DemandCollector.OperationDemand d : gr.operations()) {
                    g.writeStartObject();
                    g.writeStringField("operation", d.operation().name());
                    g.writeNumberField("count", d.count());
                    g.writeNumberField("roots", d.roots());
                    g.writeNumberField("throughputPerSecond", seconds > 0 ? d.count() / seconds : 0);
                    g.writeNumberField("meanWallMillis", d.meanWallNanos() / 1e6);
                    nullable(g, "meanCpuMillis", d.meanCpuNanos() < 0 ? null : d.meanCpuNanos() / 1e6);
                    g.writeNumberField("meanWallNanos", d.meanWallNanos());
                    nullable(g, "meanCpuNanos", d.meanCpuNanos() < 0 ? null : d.meanCpuNanos());
                    g.writeNumberField("meanExclusiveWallNanos", d.meanWallExclusiveNanos());
                    nullable(g, "meanExclusiveCpuNanos", d.meanCpuExclusiveNanos() < 0 ? null : d.meanCpuExclusiveNanos());
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            // The same means as scenario-file parameters (docs/simulator.md): name -> duration.
            g.writeObjectFieldStart("parameters");
            java.util.Set<String> used = new java.util.HashSet<>();
            for (DemandCollector.GroupDemands gr : r.demands().groups()) {
                for (DemandCollector.OperationDemand d : gr.operations()) {
                    String base = parameterName(gr.name(), d.operation().name(), used);
                    if (d.meanCpuNanos() >= 0) g.writeStringField(base + "_cpu", duration(d.meanCpuNanos()));
                    g.writeStringField(base + "_wall", duration(d.meanWallNanos()));
                }
            }
            g.writeEndObject();
            g.writeEndObject();
        }
    }

    /**
     * {@code <group>_<Class>_<method>} in lower case with every other character replaced by
     * '_', made unique with a numeric suffix: a name a scenario file can refer to as {@code $name}.
     */
    static String parameterName(String group, String operation, java.util.Set<String> used) {
        String op = operation;
        int method = op.lastIndexOf('.');
        int cls = method > 0 ? op.lastIndexOf('.', method - 1) : -1;
        if (cls >= 0) op = op.substring(cls + 1);
        String base = (group + "_" + op).toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
        if (base.isEmpty() || !Character.isLetter(base.charAt(0))) base = "p_" + base;
        String name = base;
        for (int i = 2; !used.add(name); i++) name = base + "_" + i;
        return name;
    }

    /** A duration in the scenario syntax, milliseconds with microsecond resolution, e.g. {@code 1.050ms}. */
    static String duration(double nanos) {
        return String.format(java.util.Locale.ROOT, "%.3fms", nanos / 1e6);
    }

    private static void nullable(JsonGenerator g, String name, Double v) throws IOException {
        if (v == null) g.writeNullField(name);
        else g.writeNumberField(name, v);
    }
}
