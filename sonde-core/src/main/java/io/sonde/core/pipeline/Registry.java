package io.sonde.core.pipeline;

import io.sonde.format.Format;
import io.sonde.format.write.Definitions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ids and definition records of one pipeline: probes, strings, event types and threads. All
 * registration is slow-path (synchronized, allocating). Each new definition goes to the pending
 * queue, which the writer thread takes after reading the rings' write positions, so a definition
 * always precedes its first use in the stream; all current definitions are kept to start every new
 * file segment or TCP connection with a full registry frame.
 */
public final class Registry {
    private final Map<String, Integer> probes = new HashMap<>();
    private final Map<String, Integer> strings = new HashMap<>();
    private final Map<String, Integer> eventNames = new HashMap<>();
    private final List<byte[]> fixedDefs = new ArrayList<>();
    private final Map<Long, byte[]> threadDefs = new LinkedHashMap<>();
    private List<byte[]> pending = new ArrayList<>();
    private final List<String> probeNames = new ArrayList<>();
    /** Record bytes (header + fields) per event type id; copy-on-write so the writer reads it without a lock. */
    private volatile int[] eventRecordBytes = new int[0];
    private volatile byte[][] eventFieldTypes = new byte[0][];

    /** Id of the method probe (name, signature), defining it if new. Ids are 1, 2, 3, ... (0 is never used). */
    public synchronized int probe(String name, String signature) {
        String key = name + '\u0000' + signature;
        Integer id = probes.get(key);
        if (id != null) return id;
        int n = probes.size() + 1;
        add(Definitions.probeDef(n, name, signature));
        probes.put(key, n);
        probeNames.add(name);
        return n;
    }

    /** The name of probe {@code id}, or null if no such probe was defined. */
    public synchronized String probeName(int id) {
        return id >= 1 && id <= probeNames.size() ? probeNames.get(id - 1) : null;
    }

    /** Largest probe id defined so far (0 if none). */
    public synchronized int maxProbeId() {
        return probes.size();
    }

    /** Id of the string value, defining it if new. Ids are 1, 2, 3, ... */
    public synchronized int string(String value) {
        Integer id = strings.get(value);
        if (id != null) return id;
        int n = strings.size() + 1;
        add(Definitions.stringDef(n, value));
        strings.put(value, n);
        return n;
    }

    /**
     * Defines an event type; returns its id. Defining the same name again with the same fields
     * returns the same id; with other fields it is an error.
     */
    public synchronized int eventType(String name, byte[] fieldTypes, String[] fieldNames) {
        byte[] def = Definitions.eventDef(eventNames.size() + 1, name, fieldTypes, fieldNames);
        Integer existing = eventNames.get(name);
        if (existing != null) {
            byte[] again = Definitions.eventDef(existing, name, fieldTypes, fieldNames);
            for (byte[] d : fixedDefs) {
                if (java.util.Arrays.equals(d, again)) return existing;
            }
            throw new IllegalArgumentException("event type '" + name + "' is already defined with other fields");
        }
        int id = eventNames.size() + 1; // ids 1, 2, 3, ...
        int bytes = Format.EVENT_HEADER_BYTES;
        for (byte t : fieldTypes) {
            int b = Format.fieldBytes(t);
            if (b < 0) throw new IllegalArgumentException("unknown field type " + t + " in event type " + name);
            bytes += b;
        }
        int[] sizes = java.util.Arrays.copyOf(eventRecordBytes, id + 1);
        sizes[id] = bytes;
        byte[][] types = java.util.Arrays.copyOf(eventFieldTypes, id + 1);
        types[id] = fieldTypes.clone();
        // publish the sizes before the id can be used (the writer needs them to parse the record)
        eventFieldTypes = types;
        eventRecordBytes = sizes;
        eventNames.put(name, id);
        add(def);
        return id;
    }

    /** Record bytes of EVENT records of this type, or -1 if the id is unknown. Lock-free. */
    public int eventRecordBytes(int eventTypeId) {
        int[] s = eventRecordBytes;
        return eventTypeId >= 0 && eventTypeId < s.length ? s[eventTypeId] : -1;
    }

    /** Field types of an event type (do not modify). Lock-free. */
    public byte[] eventFieldTypes(int eventTypeId) {
        return eventFieldTypes[eventTypeId];
    }

    /** Defines (or re-defines, for a renamed thread) a thread's name. */
    public synchronized void thread(long threadId, String name) {
        byte[] def = Definitions.threadDef(threadId, name);
        threadDefs.put(threadId, def);
        pending.add(def);
    }

    /** Forgets a released thread, so later segments do not repeat its definition. */
    public synchronized void forgetThread(long threadId) {
        threadDefs.remove(threadId);
    }

    private void add(byte[] def) {
        fixedDefs.add(def);
        pending.add(def);
    }

    /** Takes the definitions made since the last call (writer thread). */
    public synchronized List<byte[]> takePending() {
        if (pending.isEmpty()) return List.of();
        List<byte[]> p = pending;
        pending = new ArrayList<>();
        return p;
    }

    /** All current definitions, in definition order (threads last). */
    public synchronized List<byte[]> all() {
        List<byte[]> all = new ArrayList<>(fixedDefs.size() + threadDefs.size());
        all.addAll(fixedDefs);
        all.addAll(threadDefs.values());
        return all;
    }

    /**
     * All current definitions, and the pending queue emptied: used for the registry frame that
     * starts a segment or connection, which precedes every later frame, so the pending ones need
     * not be repeated after it.
     */
    public synchronized List<byte[]> allAndClearPending() {
        pending = new ArrayList<>();
        return all();
    }
}
