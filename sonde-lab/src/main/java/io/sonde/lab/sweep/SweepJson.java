package io.sonde.lab.sweep;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;

/** JSON of the lab's results: sweep points and the machine they were measured on. */
public final class SweepJson {
    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SweepJson() {}

    /** A new empty object. */
    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** Processors and load average of this machine now (the load is part of every result). */
    public static ObjectNode machine() {
        ObjectNode m = object();
        m.put("processors", Runtime.getRuntime().availableProcessors());
        m.put("load_average_1min", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        m.put("java", Runtime.version().toString());
        return m;
    }

    /** One point as an object (keys in snake case, times in ms). */
    public static ObjectNode point(SweepPoint p) {
        ObjectNode o = object();
        o.put("clients", p.clients());
        o.put("requests", p.requests());
        put(o, "mean_ms", p.meanMs());
        put(o, "p50_ms", p.p50Ms());
        put(o, "p90_ms", p.p90Ms());
        put(o, "p99_ms", p.p99Ms());
        put(o, "throughput_per_s", p.throughputPerSecond());
        put(o, "server_cpu_ms_per_request", p.serverCpuMsPerRequest());
        put(o, "server_cpu_utilization", p.serverCpuUtilization());
        put(o, "client_cpu_ms_per_request", p.clientCpuMsPerRequest());
        return o;
    }

    /** The points as an array. */
    public static ArrayNode points(List<SweepPoint> points) {
        ArrayNode a = MAPPER.createArrayNode();
        points.forEach(p -> a.add(point(p)));
        return a;
    }

    /** Puts a number, or null when it is NaN or infinite. */
    public static void put(ObjectNode o, String key, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            o.putNull(key);
        } else {
            o.put(key, v);
        }
    }

    /** Writes {@code node} to {@code file}. */
    public static void write(com.fasterxml.jackson.databind.JsonNode node, Path file) throws IOException {
        MAPPER.writeValue(file.toFile(), node);
    }
}
