package io.sonde.collector.naming;

import io.sonde.collector.envelope.StreamInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The collector's naming service: every agent that connected since the collector started, with
 * its host, process id, when it was first and last seen and whether a connection of it is open.
 * Updated from the connection threads; a later step serves it over the live protocol.
 */
public final class AgentDirectory {
    private final Map<UUID, Entry> agents = new ConcurrentHashMap<>();

    /** A stream of the agent started (its first frame arrived). */
    public void connected(StreamInfo s) {
        Entry e = agents.computeIfAbsent(s.agentId(), id -> new Entry(id, s.connectedMillis()));
        e.connected(s);
    }

    /** A frame of the agent arrived now. */
    public void seen(UUID agent, long nowMillis) {
        Entry e = agents.get(agent);
        if (e != null) {
            e.lastSeen = nowMillis;
        }
    }

    /** A stream of the agent ended. */
    public void disconnected(StreamInfo s, long nowMillis) {
        Entry e = agents.get(s.agentId());
        if (e != null) {
            e.disconnected(nowMillis);
        }
    }

    /** Every agent known, oldest first. */
    public List<AgentInfo> list() {
        List<AgentInfo> out = new ArrayList<>();
        agents.values().forEach(e -> out.add(e.info()));
        out.sort(Comparator.comparingLong(AgentInfo::firstSeenMillis).thenComparing(AgentInfo::agentId));
        return out;
    }

    /** The agent, or null if it never connected. */
    public AgentInfo get(UUID agent) {
        Entry e = agents.get(agent);
        return e == null ? null : e.info();
    }

    private static final class Entry {
        private final UUID id;
        private final long firstSeen;
        private String host = "";
        private long pid;
        private volatile long lastSeen;
        private int open;
        private long connections;

        Entry(UUID id, long firstSeen) {
            this.id = id;
            this.firstSeen = firstSeen;
            this.lastSeen = firstSeen;
        }

        synchronized void connected(StreamInfo s) {
            host = s.host();
            pid = s.pid();
            open++;
            connections++;
            lastSeen = Math.max(lastSeen, s.connectedMillis());
        }

        synchronized void disconnected(long now) {
            open = Math.max(0, open - 1);
            lastSeen = Math.max(lastSeen, now);
        }

        synchronized AgentInfo info() {
            return new AgentInfo(id, host, pid, firstSeen, lastSeen, open > 0 ? AgentInfo.CONNECTED : AgentInfo.DISCONNECTED, connections);
        }
    }
}
