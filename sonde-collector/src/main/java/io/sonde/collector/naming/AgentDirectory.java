package io.sonde.collector.naming;

import io.sonde.collector.envelope.StreamInfo;
import io.sonde.format.stream.ObserveEndpoint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The collector's naming service: every agent that connected since the collector started, with
 * its host, process id, when it was first and last seen and whether a connection of it is open.
 * Updated from the connection threads. Listeners ({@link #onChange}) hear of connects and
 * disconnects at once; what changes with every frame (last seen, frames) is read with
 * {@link #list()} when needed (the naming tree samples it), so a frame costs two plain writes.
 */
public final class AgentDirectory {
    private final Map<UUID, Entry> agents = new ConcurrentHashMap<>();
    private final List<Consumer<AgentInfo>> listeners = new CopyOnWriteArrayList<>();

    /**
     * Calls {@code listener} with the agent's new state each time a connection of an agent starts
     * or ends, on the connection's thread (so it must be quick and must not throw).
     */
    public void onChange(Consumer<AgentInfo> listener) {
        listeners.add(listener);
    }

    /** A stream of the agent started (its first frame arrived). */
    public void connected(StreamInfo s) {
        connected(s, null);
    }

    /**
     * A stream of the agent started (its first frame arrived); its HELLO announced {@code observe}
     * (null: none, then the agent has no observe endpoint the collector could relay to).
     */
    public void connected(StreamInfo s, ObserveEndpoint observe) {
        Entry e = agents.computeIfAbsent(s.agentId(), id -> new Entry(id, s.connectedMillis()));
        e.connected(s, observe);
        changed(e);
    }

    /** A frame of the agent arrived now. */
    public void seen(UUID agent, long nowMillis) {
        Entry e = agents.get(agent);
        if (e != null) {
            // one connection thread per stream; a racing second connection of the same agent may lose a count (statistics only)
            e.lastSeen = nowMillis;
            e.frames++;
        }
    }

    /** A stream of the agent ended. */
    public void disconnected(StreamInfo s, long nowMillis) {
        Entry e = agents.get(s.agentId());
        if (e != null) {
            e.disconnected(nowMillis);
            changed(e);
        }
    }

    private void changed(Entry e) {
        if (listeners.isEmpty()) return;
        AgentInfo info = e.info();
        for (Consumer<AgentInfo> l : listeners) l.accept(info);
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
        private volatile long frames;
        private int open;
        private long connections;
        private ObserveEndpoint observe;

        Entry(UUID id, long firstSeen) {
            this.id = id;
            this.firstSeen = firstSeen;
            this.lastSeen = firstSeen;
        }

        synchronized void connected(StreamInfo s, ObserveEndpoint announced) {
            observe = announced; // the latest connection's word: an agent restarted without observe=on has none
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
            return new AgentInfo(id, host, pid, firstSeen, lastSeen, open > 0 ? AgentInfo.CONNECTED : AgentInfo.DISCONNECTED, connections,
                    frames, observe);
        }
    }
}
