package io.sonde.cli.live;

import io.sonde.format.observe.AttributeInfo;
import io.sonde.format.observe.AttributeReading;
import io.sonde.format.observe.ObjectInfo;
import io.sonde.observer.ObserverClient;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sonde ls HOST:PORT[/PATH]}: the monitored objects (type, id) and attributes (value type,
 * sensor or supplied, unit, id, description) of a running process below PATH, as an indented tree
 * or as JSON.
 */
@Command(name = "ls", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Lists the monitored objects and attributes of a running process (observe endpoint) below PATH.",
            "Object types, attribute value types, units, ids and descriptions."})
public final class LsCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "HOST:PORT[/PATH]",
            description = "the observe endpoint, and a path or pattern in its tree (default: the whole tree)")
    String target;

    @Mixin
    ObserveOptions observe;

    @Option(names = "--json", description = "one JSON document: {\"objects\": [...], \"attributes\": [...]}")
    boolean json;

    @Option(names = "--values", description = "also read each attribute's value now (as sonde get) and show it after its name (JSON: \"value\")")
    boolean values;

    /** An object or attribute of the listing, placed in the tree by its path. */
    private record Entry(String path, String name, boolean object, String[] cells) {}

    @Override
    public Integer call() {
        ObserveAddress a = ObserveAddress.parse(target, true);
        String pattern = a.path().isEmpty() ? "**" : a.path() + "/**";
        ObserverClient.Listing l;
        Map<String, Object> read = null;
        try (ObserverClient c = observe.connect(a, (sub, events) -> {})) {
            l = c.list(pattern);
            if (values) {
                read = new HashMap<>();
                for (AttributeReading r : c.get(pattern)) read.put(r.path(), r.value());
            }
        } catch (IOException e) {
            throw ObserveOptions.failure(a, e);
        }
        if (l.objects().isEmpty() && l.attributes().isEmpty() && ObserveAddress.isLiteral(a.path())) {
            throw ObserveOptions.unknownPath(a, a.path());
        }
        PrintStream o = System.out;
        if (json) {
            o.print(json(l, read));
        } else if (l.objects().isEmpty() && l.attributes().isEmpty()) {
            System.err.println("sonde ls: nothing matches '" + a.path() + "' at " + a.endpoint());
        } else {
            ObserveOptions.columns(tree(l, read)).forEach(o::println);
        }
        o.flush();
        return 0;
    }

    /**
     * Rows of the indented tree: entries whose parent is not listed are tops and show their whole path.
     * With {@code read} (path to value), attributes get a {@code = value} column after the name.
     */
    private static List<String[]> tree(ObserverClient.Listing l, Map<String, Object> read) {
        List<Entry> entries = new ArrayList<>();
        Set<String> objectPaths = new HashSet<>();
        for (ObjectInfo ob : l.objects()) {
            if (ob.path().isEmpty()) continue; // the root: its children are the tops
            objectPaths.add(ob.path());
            entries.add(new Entry(ob.path(), name(ob.path()), true, withValue(read, "", ob.type(), "", "#" + ob.id(), "")));
        }
        for (AttributeInfo at : l.attributes()) {
            entries.add(new Entry(at.path(), name(at.path()), false, withValue(read, read == null ? "" : "= " + WatchView.text(read.get(at.path())),
                at.valueType() + (at.sensor() ? " sensor" : " supplied"), at.unit(), "#" + at.id(), at.description())));
        }
        Map<String, List<Entry>> children = new HashMap<>();
        List<Entry> tops = new ArrayList<>();
        for (Entry e : entries) {
            String parent = parent(e.path());
            if (objectPaths.contains(parent)) {
                children.computeIfAbsent(parent, k -> new ArrayList<>()).add(e);
            } else {
                tops.add(e);
            }
        }
        List<String[]> rows = new ArrayList<>();
        add(rows, tops, children, 0);
        return rows;
    }

    private static void add(List<String[]> rows, List<Entry> level, Map<String, List<Entry>> children, int depth) {
        level.sort(Comparator.comparing((Entry e) -> e.object()).thenComparing((x, y) -> ObserveOptions.compareNames(
                depth == 0 ? x.path() : x.name(), depth == 0 ? y.path() : y.name())));
        for (Entry e : level) {
            String[] cells = e.cells().clone();
            cells[0] = "  ".repeat(depth) + (depth == 0 ? e.path() : e.name()) + (e.object() ? "/" : "");
            rows.add(cells);
            if (e.object()) add(rows, children.getOrDefault(e.path(), new ArrayList<>()), children, depth + 1);
        }
    }

    /** The cells of a row: the name (filled in later), the value when values were read, then the rest. */
    private static String[] withValue(Map<String, Object> read, String value, String... rest) {
        String[] cells = new String[rest.length + (read == null ? 1 : 2)];
        cells[0] = "";
        if (read != null) cells[1] = value;
        System.arraycopy(rest, 0, cells, cells.length - rest.length, rest.length);
        return cells;
    }

    private static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }

    private static String json(ObserverClient.Listing l, Map<String, Object> read) {
        StringBuilder b = new StringBuilder("{\"objects\": [");
        String sep = "\n  ";
        for (ObjectInfo ob : l.objects()) {
            b.append(sep).append("{\"id\": ").append(ob.id()).append(", \"path\": ").append(JsonText.quote(ob.path()))
                    .append(", \"type\": ").append(JsonText.quote(ob.type())).append('}');
            sep = ",\n  ";
        }
        b.append(l.objects().isEmpty() ? "" : "\n").append("], \"attributes\": [");
        sep = "\n  ";
        for (AttributeInfo at : l.attributes()) {
            b.append(sep).append("{\"id\": ").append(at.id()).append(", \"path\": ").append(JsonText.quote(at.path()))
                    .append(", \"type\": ").append(JsonText.quote(at.valueType())).append(", \"sensor\": ").append(at.sensor())
                    .append(", \"unit\": ").append(JsonText.quote(at.unit()))
                    .append(", \"description\": ").append(JsonText.quote(at.description()));
            if (read != null) b.append(", \"value\": ").append(JsonText.value(read.get(at.path())));
            b.append('}');
            sep = ",\n  ";
        }
        return b.append(l.attributes().isEmpty() ? "" : "\n").append("]}\n").toString();
    }
}
