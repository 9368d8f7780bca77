package io.sonde.format.read;

/**
 * The definitions seen so far in a stream: probe names and signatures, strings, thread names and
 * event types. Probe ids, string ids and event type ids are separate id spaces; thread ids are
 * Java thread ids.
 */
public final class Registry {
    private final LongKeyMap<String[]> probes = new LongKeyMap<>();
    private final LongKeyMap<String> strings = new LongKeyMap<>();
    private final LongKeyMap<String> threads = new LongKeyMap<>();
    private final LongKeyMap<EventType> eventTypes = new LongKeyMap<>();

    Registry() {}

    /** Probe name (e.g. {@code com.example.Shop.checkout}), or null if not defined. */
    public String probeName(int probeId) {
        String[] p = probes.get(probeId);
        return p == null ? null : p[0];
    }

    /** Probe signature (e.g. {@code (I)V}), or null if not defined. */
    public String probeSignature(int probeId) {
        String[] p = probes.get(probeId);
        return p == null ? null : p[1];
    }

    public boolean hasProbe(int probeId) {
        return probes.get(probeId) != null;
    }

    /** The string with this id, or null if not defined. */
    public String string(int stringId) {
        return strings.get(stringId);
    }

    /** The thread's name, or null if the stream did not name it. */
    public String threadName(long threadId) {
        return threads.get(threadId);
    }

    /** The event type, or null if not defined. */
    public EventType eventType(int eventTypeId) {
        return eventTypes.get(eventTypeId);
    }

    public int probeCount() {
        return probes.size();
    }

    public int stringCount() {
        return strings.size();
    }

    public int threadCount() {
        return threads.size();
    }

    public int eventTypeCount() {
        return eventTypes.size();
    }

    // ---- registration; each returns null if fine, or a description of the conflict
    String defineProbe(int id, String name, String signature) {
        String[] old = probes.get(id);
        if (old == null) {
            probes.put(id, new String[] {name, signature});
            return null;
        }
        return old[0].equals(name) && old[1].equals(signature) ? null
                : "probe id " + id + " redefined as " + name + signature + " (was " + old[0] + old[1] + ")";
    }

    String defineString(int id, String value) {
        String old = strings.get(id);
        if (old == null) {
            strings.put(id, value);
            return null;
        }
        return old.equals(value) ? null : "string id " + id + " redefined as \"" + value + "\" (was \"" + old + "\")";
    }

    String defineThread(long id, String name) {
        String old = threads.get(id);
        if (old == null) {
            threads.put(id, name);
            return null;
        }
        return old.equals(name) ? null : "thread id " + id + " redefined as \"" + name + "\" (was \"" + old + "\")";
    }

    String defineEventType(EventType type) {
        EventType old = eventTypes.get(type.id());
        if (old == null) {
            eventTypes.put(type.id(), type);
            return null;
        }
        return old.equals(type) ? null : "event type id " + type.id() + " redefined as " + type + " (was " + old + ")";
    }
}
