package io.sonde.cli.live;

import picocli.CommandLine.Parameters;

/** The positional {@code HOST:PORT PATTERN} of the commands that act on the sensors matching a pattern. */
public final class EndpointPattern {
    @Parameters(index = "0", paramLabel = "HOST:PORT", description = "the observe endpoint")
    String target;

    @Parameters(index = "1", paramLabel = "PATTERN",
            description = "path pattern of the sensors, such as 'shop/**', 'jvm/memory/*' or shop/stock/*/level")
    String pattern;

    /** The endpoint (a path after it is a usage error: the pattern is the next argument). */
    ObserveAddress address() {
        return ObserveAddress.parse(target, false);
    }
}
