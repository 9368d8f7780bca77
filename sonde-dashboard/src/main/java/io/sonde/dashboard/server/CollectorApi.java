package io.sonde.dashboard.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sonde.analysis.correction.ProbeCost;
import io.sonde.dashboard.log.RecordedLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The dashboard of a running collector ({@code sonde collector --http PORT}): the agents the
 * collector knows ({@code /api/agents}) and the recorded-log pages over its archive, read again
 * when the archive has grown, at most every {@link #REFRESH_NANOS}. Before the first agent has
 * sent anything the answers are empty (the pages show their empty states).
 */
public final class CollectorApi implements Api {
    /** Shortest interval between two readings of the archive. */
    public static final long REFRESH_NANOS = 5_000_000_000L;
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /**
     * One agent as the collector's directory and receiver know it.
     *
     * @param id agent id
     * @param host host name it reported
     * @param pid process id it reported
     * @param status {@code connected} or {@code disconnected}
     * @param connections connections it made
     * @param firstSeenMillis first connection, epoch ms
     * @param lastSeenMillis last activity, epoch ms
     * @param frames frames received
     * @param bytes bytes received
     * @param missingFrames frames missing from its sequence
     * @param records data records received (decoded by the collector's counting handler), -1 if not counted
     * @param recordsPerSecond records per second over the last seconds ({@link io.sonde.dashboard.rates.RecentRate}), null if not known
     * @param droppedRecords records the agent reported dropped (its GAP records), -1 if not counted
     * @param droppedPerSecond those per second over the same window, null if not known
     */
    public record Agent(String id, String host, long pid, String status, long connections, long firstSeenMillis, long lastSeenMillis,
            long frames, long bytes, long missingFrames, long records, Double recordsPerSecond, long droppedRecords, Double droppedPerSecond) {}

    private final Path archive;
    private final Supplier<List<Agent>> agents;
    private final ProbeCost probeCost;
    private final long refreshNanos;
    private LogApi current;
    private long readAtNanos;
    private long readBytes = -1;

    /**
     * @param archive the collector's archive folder (one folder of segments per agent)
     * @param agents the collector's agents, asked at each {@code /api/agents}
     */
    public CollectorApi(Path archive, Supplier<List<Agent>> agents, ProbeCost probeCost) {
        this(archive, agents, probeCost, REFRESH_NANOS);
    }

    CollectorApi(Path archive, Supplier<List<Agent>> agents, ProbeCost probeCost, long refreshNanos) {
        this.archive = archive;
        this.agents = agents;
        this.probeCost = probeCost;
        this.refreshNanos = refreshNanos;
    }

    @Override
    public JsonNode get(String path, Query query) {
        if (path.equals("/api/agents")) return agents();
        LogApi api = current();
        if (api == null) return nothingYet(path);
        JsonNode answer = api.get(path, query);
        if (answer instanceof ObjectNode o && path.equals("/api/log")) o.put("source", "collector");
        return answer;
    }

    private JsonNode agents() {
        ArrayNode out = JSON.arrayNode();
        for (Agent a : agents.get()) {
            out.addObject().put("id", a.id()).put("host", a.host()).put("pid", a.pid()).put("status", a.status())
                    .put("connections", a.connections()).put("firstSeenMillis", a.firstSeenMillis()).put("lastSeenMillis", a.lastSeenMillis())
                    .put("frames", a.frames()).put("bytes", a.bytes()).put("missingFrames", a.missingFrames())
                    .put("records", a.records()).put("recordsPerSecond", a.recordsPerSecond())
                    .put("droppedRecords", a.droppedRecords()).put("droppedPerSecond", a.droppedPerSecond());
        }
        return out;
    }

    /** The archive's analysis, read again when it has grown and the last reading is old enough; null while it holds no log. */
    private synchronized LogApi current() {
        long now = System.nanoTime();
        if (readBytes >= 0 && now - readAtNanos < refreshNanos) return current;
        long bytes = archiveBytes();
        if (bytes != readBytes) {
            try {
                current = bytes == 0 ? null : new LogApi(RecordedLog.open(List.of(archive), probeCost));
            } catch (IOException e) {
                current = null; // no segment yet
            }
            readBytes = bytes;
        }
        readAtNanos = now;
        return current;
    }

    private long archiveBytes() {
        if (!Files.isDirectory(archive)) return 0;
        try (Stream<Path> files = Files.walk(archive, 2)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".sonde")).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0; // rolled away meanwhile
                }
            }).sum();
        } catch (IOException | UncheckedIOException e) {
            return readBytes;
        }
    }

    /** The answers while the archive holds no log: empty lists, so the pages show their empty states. */
    private static JsonNode nothingYet(String path) {
        switch (path) {
            case "/api/log": {
                ObjectNode o = JSON.objectNode().put("source", "collector").put("partial", false);
                o.putArray("inputs");
                o.putArray("agents");
                o.putArray("problems");
                o.putNull("durationNanos");
                return o.put("operations", 0).put("executions", 0).put("requests", 0);
            }
            case "/api/operations":
            case "/api/demands":
                return JSON.arrayNode();
            case "/api/traces": {
                ObjectNode o = JSON.objectNode().put("matches", 0).put("listed", 0).put("truncatedIndex", false);
                o.putArray("traces");
                return o;
            }
            default:
                if (path.startsWith("/api/traces/") || path.equals("/api/timeseries") || path.equals("/api/whatif")) throw ApiError.notFound("nothing archived yet: no agent has sent data to the collector");
                throw ApiError.notFound("no such API: " + path);
        }
    }
}
