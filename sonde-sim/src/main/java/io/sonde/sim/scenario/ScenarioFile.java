package io.sonde.sim.scenario;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A scenario file read into a {@link Node} tree with positions. YAML ({@code .yaml}, {@code .yml})
 * and JSON ({@code .json}) are accepted; syntax errors name the line and column.
 */
public final class ScenarioFile {
    private final String name;
    private final Node root;

    private ScenarioFile(String name, Node root) {
        this.name = name;
        this.root = root;
    }

    /** Reads and parses {@code path}. */
    public static ScenarioFile read(Path path) {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ScenarioException(path + ": cannot read: " + e.getMessage());
        }
        boolean json = path.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json");
        return parse(path.toString(), text, json);
    }

    /** Parses {@code text} (JSON when {@code json}, YAML otherwise); {@code name} appears in errors. */
    public static ScenarioFile parse(String name, String text, boolean json) {
        JsonFactory f = json ? new JsonFactory() : new YAMLFactory();
        try (Reader r = new StringReader(text); JsonParser p = f.createParser(r)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw new ScenarioException(name + ":1:1: the file is empty");
            }
            Node root = value(name, p, t);
            if (p.nextToken() != null) {
                throw at(name, p.currentTokenLocation(), "unexpected content after the end of the document");
            }
            if (root.kind() != Node.Kind.MAP) {
                throw root.error("the top level must be a mapping (name:, machines:, ...)");
            }
            return new ScenarioFile(name, root);
        } catch (JsonProcessingException e) {
            JsonLocation loc = e.getLocation();
            String msg = e.getOriginalMessage();
            int nl = msg.indexOf('\n');
            throw at(name, loc, "syntax error: " + (nl > 0 ? msg.substring(0, nl) : msg));
        } catch (IOException e) {
            throw new ScenarioException(name + ": cannot read: " + e.getMessage());
        }
    }

    private static Node value(String file, JsonParser p, JsonToken t) throws IOException {
        JsonLocation loc = p.currentTokenLocation();
        int line = Math.max(1, loc.getLineNr());
        int col = Math.max(1, loc.getColumnNr());
        switch (t) {
            case START_OBJECT: {
                Node m = Node.map(file, line, col);
                JsonToken k;
                while ((k = p.nextToken()) == JsonToken.FIELD_NAME) {
                    JsonLocation kl = p.currentTokenLocation();
                    Node keyPos = Node.scalar(file, Math.max(1, kl.getLineNr()), Math.max(1, kl.getColumnNr()), p.currentName());
                    String key = p.currentName();
                    Node v = value(file, p, p.nextToken());
                    m.put(key, keyPos, v);
                }
                return m;
            }
            case START_ARRAY: {
                Node l = Node.list(file, line, col);
                JsonToken e;
                while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
                    l.add(value(file, p, e));
                }
                return l;
            }
            case VALUE_NULL:
                return Node.scalar(file, line, col, "");
            default:
                return Node.scalar(file, line, col, p.getText());
        }
    }

    private static ScenarioException at(String file, JsonLocation loc, String problem) {
        int line = loc == null ? 0 : loc.getLineNr();
        int col = loc == null ? 0 : loc.getColumnNr();
        return new ScenarioException(file + ":" + Math.max(1, line) + ":" + Math.max(1, col) + ": " + problem);
    }

    /** The file name used in messages. */
    public String name() {
        return name;
    }

    /** The top-level mapping. */
    public Node root() {
        return root;
    }
}
