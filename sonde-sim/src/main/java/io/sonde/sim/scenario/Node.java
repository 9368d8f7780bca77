package io.sonde.sim.scenario;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node of a parsed scenario file (YAML or JSON) that remembers where it was written, so that
 * every error can name the file, line and column. A node is a map (keys in file order), a list or
 * a scalar (kept as text).
 */
public final class Node {
    /** The three shapes a node can have. */
    public enum Kind { MAP, LIST, SCALAR }

    private final String file;
    private final int line;
    private final int column;
    private final Kind kind;
    private final String text;
    private final Map<String, Node> map;
    private final Map<String, Node> keyNodes;
    private final List<Node> list;

    private Node(String file, int line, int column, Kind kind, String text) {
        this.file = file;
        this.line = line;
        this.column = column;
        this.kind = kind;
        this.text = text;
        this.map = kind == Kind.MAP ? new LinkedHashMap<>() : null;
        this.keyNodes = kind == Kind.MAP ? new LinkedHashMap<>() : null;
        this.list = kind == Kind.LIST ? new ArrayList<>() : null;
    }

    static Node map(String file, int line, int column) {
        return new Node(file, line, column, Kind.MAP, null);
    }

    static Node list(String file, int line, int column) {
        return new Node(file, line, column, Kind.LIST, null);
    }

    static Node scalar(String file, int line, int column, String text) {
        return new Node(file, line, column, Kind.SCALAR, text);
    }

    void put(String key, Node keyPosition, Node value) {
        if (map.containsKey(key)) {
            throw keyPosition.error("duplicate key '" + key + "'");
        }
        map.put(key, value);
        keyNodes.put(key, keyPosition);
    }

    void add(Node value) {
        list.add(value);
    }

    /** The shape. */
    public Kind kind() {
        return kind;
    }

    /** "file:line:column". */
    public String where() {
        return file + ":" + line + ":" + column;
    }

    /** An exception naming this node's position. */
    public ScenarioException error(String problem) {
        return new ScenarioException(where() + ": " + problem);
    }

    /** This node as a map; an error naming {@code what} otherwise. */
    public Map<String, Node> asMap(String what) {
        if (kind != Kind.MAP) {
            throw error(what + " must be a mapping (key: value), found " + describe());
        }
        return Collections.unmodifiableMap(map);
    }

    /** This node as a list; a single non-list value is an error naming {@code what}. */
    public List<Node> asList(String what) {
        if (kind != Kind.LIST) {
            throw error(what + " must be a list, found " + describe());
        }
        return Collections.unmodifiableList(list);
    }

    /** The scalar's text; an error naming {@code what} otherwise. */
    public String asText(String what) {
        if (kind != Kind.SCALAR) {
            throw error(what + " must be a single value, found " + describe());
        }
        return text;
    }

    /** The position of a map key (for errors about the key itself). */
    public Node keyNode(String key) {
        return keyNodes.getOrDefault(key, this);
    }

    /** The child {@code key} of a map, or null. */
    public Node get(String key) {
        return map == null ? null : map.get(key);
    }

    /** Rejects keys other than {@code allowed} (catches typos), naming the unknown key's position. */
    public void allowOnly(String what, String... allowed) {
        List<String> ok = List.of(allowed);
        for (String k : asMap(what).keySet()) {
            if (!ok.contains(k)) {
                throw keyNode(k).error("unknown key '" + k + "' in " + what + " (allowed: " + String.join(", ", ok) + ")");
            }
        }
    }

    /** The required child {@code key}; an error naming this map's position otherwise. */
    public Node require(String key, String what) {
        Node n = asMap(what).get(key);
        if (n == null) {
            throw error(what + " needs '" + key + "'");
        }
        return n;
    }

    private String describe() {
        return switch (kind) {
            case MAP -> "a mapping";
            case LIST -> "a list";
            case SCALAR -> "'" + text + "'";
        };
    }
}
