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
            g.writeEndObject();
        }
    }

    private static void nullable(JsonGenerator g, String name, Double v) throws IOException {
        if (v == null) g.writeNullField(name);
        else g.writeNumberField(name, v);
    }
}
