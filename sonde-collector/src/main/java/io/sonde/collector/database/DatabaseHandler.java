package io.sonde.collector.database;

import io.sonde.analysis.stats.LatencyDistribution;
import io.sonde.collector.envelope.DecodedFrame;
import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.envelope.StreamInfo;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.HandlerConfig;
import io.sonde.format.Format;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * The {@code database} handler: fills the archive database ({@link ArchiveDatabase}) — agents,
 * segments, and per operation and minute the calls, errors and wall-time percentiles, computed by
 * decoding the frames and pairing ENTER and EXIT per thread. Queued: it runs on its own thread and
 * commits a batch about once a second ({@link #flush()}), in one transaction.
 *
 * <p>Options: {@code database.url} — a JDBC URL (default: SQLite {@code archive.db} in the output
 * folder; {@code jdbc:postgresql://host:port/db?user=…} for a shared server).
 *
 * <p>A minute's row is written once the agent's records have moved two minutes past it, when the
 * agent's last connection ends, and at close. Records that arrive for a minute already written
 * (a late reconnect) make a second row for it: counts add up over rows; percentiles are per row.
 * If the handler's queue overflowed, the frames it did not get are missing from the aggregates
 * (the collector's handler status counts them) and the calls open across them are not timed.
 */
public final class DatabaseHandler implements DataHandler {
    public static final String NAME = "database";
    private static final long MINUTE_NANOS = 60_000_000_000L;

    private Connection db;
    private Path out;
    private String url;
    private PreparedStatement upsertAgent;
    private PreparedStatement upsertSegment;
    private PreparedStatement insertMinute;
    private final Map<StreamInfo, StreamState> streams = new HashMap<>();
    private final Map<UUID, AgentState> agents = new HashMap<>();
    private final Map<MinuteKey, Minute> minutes = new HashMap<>();
    private boolean dirty;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean decodes() {
        return true;
    }

    @Override
    public void open(HandlerConfig config) throws Exception {
        out = config.out();
        url = config.option("database.url", ArchiveDatabase.sqliteUrl(out));
        db = ArchiveDatabase.openForWriting(url);
        upsertAgent = db.prepareStatement("INSERT INTO agents (agent_id, host, pid, first_seen_ms, last_seen_ms, status) VALUES (?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT (agent_id) DO UPDATE SET host = excluded.host, pid = excluded.pid, last_seen_ms = excluded.last_seen_ms,"
                + " status = excluded.status");
        upsertSegment = db.prepareStatement("INSERT INTO segments (segment, agent_id, connected_ms, first_frame_ns, last_frame_ns, frames, bytes,"
                + " data_records, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (segment) DO UPDATE SET first_frame_ns = excluded.first_frame_ns,"
                + " last_frame_ns = excluded.last_frame_ns, frames = excluded.frames, bytes = excluded.bytes,"
                + " data_records = excluded.data_records, status = excluded.status");
        insertMinute = db.prepareStatement("INSERT INTO operation_minutes (agent_id, operation, minute_ms, calls, errors, sum_ns, p50_ns, p90_ns,"
                + " p99_ns, max_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    }

    /** The JDBC URL written to. */
    public String url() {
        return url;
    }

    @Override
    public void streamStarted(StreamInfo stream) {
        StreamState s = new StreamState(stream, segmentName(stream));
        streams.put(stream, s);
        AgentState a = agents.computeIfAbsent(stream.agentId(), id -> new AgentState(stream.connectedMillis()));
        a.host = stream.host();
        a.pid = stream.pid();
        a.open++;
        a.lastSeen = Math.max(a.lastSeen, stream.connectedMillis());
        a.dirty = true;
        dirty = true;
    }

    private String segmentName(StreamInfo stream) {
        String file = stream.segment();
        if (file == null) {
            return "connection-" + stream.connection() + "@" + stream.connectedMillis();
        }
        Path p = Path.of(file);
        return p.startsWith(out) ? out.relativize(p).toString() : file;
    }

    @Override
    public void handle(Envelope e) {
        StreamState s = streams.get(e.stream());
        if (s == null) {
            return; // cannot happen: stream events are never dropped
        }
        s.pairing.follow(e.index());
        s.frames++;
        s.bytes += e.length();
        long wall = e.wallNanos();
        s.firstFrame = s.frames == 1 ? wall : Math.min(s.firstFrame, wall);
        s.lastFrame = Math.max(s.lastFrame, wall);
        s.dirty = true;
        dirty = true;
        AgentState a = agents.get(e.agentId());
        a.lastSeen = Math.max(a.lastSeen, System.currentTimeMillis());
        if (!Format.holdsRecords(e.type())) {
            return;
        }
        DecodedFrame f = e.decode();
        s.records += f.dataRecords();
        UUID agent = e.agentId();
        s.pairing.frame(f, (operation, start, duration, error) -> {
            long minute = Math.floorDiv(start, MINUTE_NANOS);
            a.newestMinute = Math.max(a.newestMinute, minute);
            minutes.computeIfAbsent(new MinuteKey(agent, operation, minute), k -> new Minute()).add(duration, error);
        });
    }

    @Override
    public void streamEnded(StreamInfo stream, boolean clean) throws SQLException {
        StreamState s = streams.remove(stream);
        AgentState a = agents.get(stream.agentId());
        if (s == null || a == null) {
            return;
        }
        s.status = clean ? "closed" : "aborted";
        s.dirty = true;
        writeSegment(s);
        a.open = Math.max(0, a.open - 1);
        a.lastSeen = Math.max(a.lastSeen, System.currentTimeMillis());
        a.dirty = true;
        if (a.open == 0) {
            writeMinutes(stream.agentId(), Long.MAX_VALUE);
        }
        dirty = true;
    }

    @Override
    public void flush() throws SQLException {
        if (!dirty) {
            return;
        }
        for (StreamState s : streams.values()) {
            writeSegment(s);
        }
        for (Map.Entry<UUID, AgentState> e : agents.entrySet()) {
            writeMinutes(e.getKey(), e.getValue().newestMinute - 2);
        }
        writeAgents();
        upsertSegment.executeBatch();
        insertMinute.executeBatch();
        db.commit();
        dirty = false;
    }

    @Override
    public void close() throws SQLException {
        if (db == null) {
            return;
        }
        try {
            for (AgentState a : agents.values()) {
                a.open = 0; // the collector stops: nobody stays connected
                a.dirty = true;
            }
            for (StreamState s : streams.values()) {
                s.status = "aborted";
                writeSegment(s);
            }
            streams.clear();
            for (UUID agent : agents.keySet()) {
                writeMinutes(agent, Long.MAX_VALUE);
            }
            dirty = true;
            flush();
        } finally {
            db.close();
        }
    }

    private void writeAgents() throws SQLException {
        for (Map.Entry<UUID, AgentState> e : agents.entrySet()) {
            AgentState a = e.getValue();
            if (!a.dirty) {
                continue;
            }
            upsertAgent.setString(1, e.getKey().toString());
            upsertAgent.setString(2, a.host);
            upsertAgent.setLong(3, a.pid);
            upsertAgent.setLong(4, a.firstSeen);
            upsertAgent.setLong(5, a.lastSeen);
            upsertAgent.setString(6, a.open > 0 ? "connected" : "disconnected");
            upsertAgent.addBatch();
            a.dirty = false;
        }
        upsertAgent.executeBatch();
    }

    private void writeSegment(StreamState s) throws SQLException {
        if (!s.dirty) {
            return;
        }
        upsertSegment.setString(1, s.name);
        upsertSegment.setString(2, s.stream.agentId().toString());
        upsertSegment.setLong(3, s.stream.connectedMillis());
        if (s.frames == 0) {
            upsertSegment.setNull(4, java.sql.Types.BIGINT);
            upsertSegment.setNull(5, java.sql.Types.BIGINT);
        } else {
            upsertSegment.setLong(4, s.firstFrame);
            upsertSegment.setLong(5, s.lastFrame);
        }
        upsertSegment.setLong(6, s.frames);
        upsertSegment.setLong(7, s.bytes);
        upsertSegment.setLong(8, s.records);
        upsertSegment.setString(9, s.status);
        upsertSegment.addBatch();
        s.dirty = false;
    }

    /** Writes and forgets the agent's minutes up to and including {@code lastMinute}. */
    private void writeMinutes(UUID agent, long lastMinute) throws SQLException {
        for (Iterator<Map.Entry<MinuteKey, Minute>> it = minutes.entrySet().iterator(); it.hasNext();) {
            Map.Entry<MinuteKey, Minute> e = it.next();
            MinuteKey k = e.getKey();
            if (!k.agent.equals(agent) || k.minute > lastMinute) {
                continue;
            }
            LatencyDistribution d = e.getValue().wall;
            insertMinute.setString(1, agent.toString());
            insertMinute.setString(2, k.operation);
            insertMinute.setLong(3, k.minute * 60_000L);
            insertMinute.setLong(4, d.count());
            insertMinute.setLong(5, e.getValue().errors);
            insertMinute.setLong(6, d.sum());
            insertMinute.setLong(7, d.percentile(50));
            insertMinute.setLong(8, d.percentile(90));
            insertMinute.setLong(9, d.percentile(99));
            insertMinute.setLong(10, d.max());
            insertMinute.addBatch();
            it.remove();
            dirty = true;
        }
    }

    private static final class StreamState {
        final StreamInfo stream;
        final String name;
        final ExecutionPairing pairing = new ExecutionPairing();
        long frames;
        long bytes;
        long records;
        long firstFrame;
        long lastFrame = Long.MIN_VALUE;
        String status = "open";
        boolean dirty = true;

        StreamState(StreamInfo stream, String name) {
            this.stream = stream;
            this.name = name;
        }
    }

    private static final class AgentState {
        final long firstSeen;
        String host = "";
        long pid;
        long lastSeen;
        int open;
        long newestMinute = Long.MIN_VALUE + 1;
        boolean dirty = true;

        AgentState(long firstSeen) {
            this.firstSeen = firstSeen;
            this.lastSeen = firstSeen;
        }
    }

    private record MinuteKey(UUID agent, String operation, long minute) {
        MinuteKey {
            Objects.requireNonNull(operation);
        }
    }

    private static final class Minute {
        final LatencyDistribution wall = new LatencyDistribution();
        long errors;

        void add(long duration, boolean error) {
            wall.record(duration);
            if (error) {
                errors++;
            }
        }
    }
}
