package io.sonde.cli.live;

import io.sonde.cli.UsageError;
import io.sonde.cli.UserError;
import io.sonde.format.observe.ObserveProtocol;
import io.sonde.format.observe.ProbeInfo;
import io.sonde.format.observe.ProbeListing;
import io.sonde.observer.ObserveException;
import io.sonde.observer.ObserverClient;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sonde ls-probes HOST:PORT [PATTERN]}: the method probes of a running process with the
 * Sonde agent, over its observe endpoint (directly, or through a collector with {@code --agent}):
 * on or off, and who set that state and why. The observe twin of {@code sonde probes --pid PID
 * list}, which needs the same machine and user (JMX through the attach API).
 */
@Command(name = "ls-probes", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Lists the method probes of a running process with the Sonde agent (observe endpoint): on or off, and who set that"
                + " state (the agent's options, a switch at run time, the overhead budget) and why.",
            "Lines: on|off, name, signature, #id, origin, detail. A page holds at most 1000 probes: --offset for the next, --all for every page."})
public final class ProbeListCommand implements Callable<Integer> {
    /** Probes per request when --all pages through everything. */
    static final int ALL_PAGE = ObserveProtocol.MAX_PROBE_PAGE;

    @Parameters(index = "0", paramLabel = "HOST:PORT", description = "the observe endpoint (or a collector's, with --agent)")
    String target;

    @Parameters(index = "1", arity = "0..1", paramLabel = "PATTERN", defaultValue = "*",
            description = "probe name pattern over <class>.<method>, e.g. 'com.acme.*.get*' (* any run of characters, ? one; default: ${DEFAULT-VALUE})")
    String pattern;

    @Mixin
    ObserveOptions observe;

    @Option(names = "--json", description = "one JSON document: {\"total\": N, \"offset\": N, \"truncated\": B, \"probes\": [...]}")
    boolean json;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "1000", description = "at most N probes (the endpoint sends at most 1000 a page; default: ${DEFAULT-VALUE})")
    int limit;

    @Option(names = "--offset", paramLabel = "N", defaultValue = "0", description = "skip the first N matching probes (default: ${DEFAULT-VALUE})")
    int offset;

    @Option(names = "--all", description = "every matching probe, asking page after page (--limit and --offset do not apply)")
    boolean all;

    @Override
    public Integer call() {
        if (limit < 0 || offset < 0) throw new UsageError("--limit and --offset must be 0 or more");
        if (all && offset != 0) throw new UsageError("--all lists from the first probe: leave out --offset");
        if (pattern.isBlank()) throw new UsageError("PATTERN: give a probe name pattern, or none for every probe");
        ObserveAddress a = ObserveAddress.parse(target, false);
        ProbeListing listing;
        try (ObserverClient c = observe.connect(a, (sub, events) -> {})) {
            listing = all ? every(c) : c.probes(pattern, offset, limit);
        } catch (ObserveException e) {
            if (e.code() == ObserveProtocol.ERR_UNAVAILABLE) {
                throw new UserError(a.endpoint() + " has no method probes to list (no Sonde agent in that process): " + e.getMessage());
            }
            throw ObserveOptions.failure(a, e);
        } catch (IOException e) {
            throw ObserveOptions.failure(a, e);
        }
        PrintStream o = System.out;
        if (json) {
            o.print(json(listing));
        } else {
            List<String[]> rows = new ArrayList<>();
            for (ProbeInfo p : listing.probes()) {
                rows.add(new String[] {p.on() ? "on" : "off", p.name(), p.signature(), "#" + p.id(),
                    p.origin().name().toLowerCase(Locale.ROOT), p.detail()});
            }
            ObserveOptions.columns(rows).forEach(o::println);
            if (listing.total() == 0) {
                System.err.println("sonde ls-probes: no probe matches '" + pattern + "' at " + a.endpoint());
            } else if (listing.truncated()) {
                System.err.println("sonde ls-probes: " + listing.probes().size() + " of " + listing.total() + " matching probes shown;"
                        + " --offset " + listing.nextOffset() + " for the next page, or --all");
            }
        }
        o.flush();
        return 0;
    }

    /** Every match, page by page (probes woven meanwhile come last, so nothing shifts before them). */
    private ProbeListing every(ObserverClient c) throws IOException {
        List<ProbeInfo> probes = new ArrayList<>();
        ProbeListing page = c.probes(pattern, 0, ALL_PAGE);
        probes.addAll(page.probes());
        while (page.truncated() && !page.probes().isEmpty()) {
            page = c.probes(pattern, page.nextOffset(), ALL_PAGE);
            probes.addAll(page.probes());
        }
        return new ProbeListing(Math.max(page.total(), probes.size()), 0, probes);
    }

    static String json(ProbeListing l) {
        StringBuilder b = new StringBuilder("{\"total\": ").append(l.total()).append(", \"offset\": ").append(l.offset())
                .append(", \"truncated\": ").append(l.truncated()).append(", \"probes\": [");
        String sep = "\n  ";
        for (ProbeInfo p : l.probes()) {
            b.append(sep).append("{\"id\": ").append(p.id()).append(", \"name\": ").append(JsonText.quote(p.name()))
                    .append(", \"signature\": ").append(JsonText.quote(p.signature())).append(", \"on\": ").append(p.on())
                    .append(", \"origin\": ").append(JsonText.quote(p.origin().name())).append(", \"detail\": ")
                    .append(JsonText.quote(p.detail())).append('}');
            sep = ",\n  ";
        }
        return b.append(l.probes().isEmpty() ? "" : "\n").append("]}\n").toString();
    }
}
