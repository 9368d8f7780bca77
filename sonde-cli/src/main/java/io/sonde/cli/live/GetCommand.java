package io.sonde.cli.live;

import io.sonde.cli.UsageError;
import io.sonde.format.observe.AttributeReading;
import io.sonde.observer.ObserverClient;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sonde get HOST:PORT/PATH}: reads the current values of the attributes at PATH (a glob;
 * an object's path reads the attributes below it) in a running process, now.
 */
@Command(name = "get", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Reads the current value of attributes of a running process (observe endpoint), now.",
            "PATH names an attribute, an object (the attributes below it) or is a pattern such as shop/stock/*/level."})
public final class GetCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "HOST:PORT/PATH", description = "the observe endpoint and the attribute path or pattern")
    String target;

    @Mixin
    ObserveOptions observe;

    @Option(names = "--json", description = "one JSON document: {\"values\": [{\"path\", \"id\", \"value\", \"unit\", \"time_ns\"}, ...]}")
    boolean json;

    @Override
    public Integer call() {
        ObserveAddress a = ObserveAddress.parse(target, true);
        if (a.path().isEmpty()) {
            throw new UsageError("'" + target + "' names no path: expected HOST:PORT/PATH such as 127.0.0.1:7712/jvm/threads/*");
        }
        List<AttributeReading> values;
        try (ObserverClient c = observe.connect(a, (sub, events) -> {})) {
            values = c.get(a.path());
            if (values.isEmpty() && ObserveAddress.isLiteral(a.path())) values = c.get(a.path() + "/**"); // an object: the attributes below
        } catch (IOException e) {
            throw ObserveOptions.failure(a, e);
        }
        PrintStream o = System.out;
        if (json) {
            StringBuilder b = new StringBuilder("{\"values\": [");
            String sep = "\n  ";
            for (AttributeReading r : values) {
                b.append(sep).append("{\"path\": ").append(JsonText.quote(r.path())).append(", \"id\": ").append(r.id())
                        .append(", \"value\": ").append(JsonText.value(r.value())).append(", \"unit\": ").append(JsonText.quote(r.unit()))
                        .append(", \"time_ns\": ").append(r.timeNanos()).append('}');
                sep = ",\n  ";
            }
            o.print(b.append(values.isEmpty() ? "" : "\n").append("]}\n"));
        } else if (values.isEmpty()) {
            System.err.println("sonde get: no attribute matches '" + a.path() + "' at " + a.endpoint());
        } else {
            List<String[]> rows = new ArrayList<>();
            for (AttributeReading r : values) rows.add(new String[] {r.path(), WatchView.text(r.value()), r.unit()});
            ObserveOptions.columns(rows).forEach(o::println);
        }
        o.flush();
        return 0;
    }
}
