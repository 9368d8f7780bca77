package io.sonde.bench.overhead.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sonde.bench.overhead.Result;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes {@code overhead.json}: an array with one object per framework x phase x threads x JDK.
 * Keys: framework, version, jdk, phase, threads, calls, runs, depth, mean_us, median_us, min_us,
 * max_us, overhead_ns_per_execution, overhead_median_ns_per_execution, records_expected, records_written, reason, startup_ms,
 * heap_used_mb, agent_heap_mb, thread_count, agent_threads, errors. Unknown values are null.
 */
public final class JsonReport {

    private JsonReport() {}

    /** Writes the results to {@code file}. */
    public static void write(Path file, List<Result> results) throws IOException {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ArrayNode array = mapper.createArrayNode();
        for (Result r : results) {
            ObjectNode o = array.addObject();
            o.put("framework", r.framework());
            o.put("version", r.version());
            o.put("jdk", r.jdk());
            o.put("phase", r.phase());
            o.put("threads", r.threads());
            o.put("calls", r.calls());
            o.put("runs", r.runs());
            o.put("depth", r.depth());
            o.put("mean_us", round(r.meanUs()));
            o.put("median_us", round(r.medianUs()));
            o.put("min_us", round(r.minUs()));
            o.put("max_us", round(r.maxUs()));
            o.put("overhead_ns_per_execution", round(r.overheadNsPerExecution()));
            o.put("overhead_median_ns_per_execution", round(r.overheadMedianNsPerExecution()));
            o.put("records_expected", r.recordsExpected());
            o.put("records_written", r.recordsWritten());
            o.put("reason", r.reason());
            o.put("startup_ms", round(r.startupMs()));
            o.put("heap_used_mb", round(r.heapUsedMb()));
            o.put("agent_heap_mb", round(r.agentHeapMb()));
            o.put("thread_count", r.threadCount());
            ArrayNode threads = o.putArray("agent_threads");
            r.agentThreads().forEach(threads::add);
            ArrayNode errors = o.putArray("errors");
            r.errors().forEach(errors::add);
        }
        mapper.writeValue(file.toFile(), array);
    }

    private static Double round(Double v) {
        return v == null ? null : Math.round(v * 1000.0) / 1000.0;
    }
}
