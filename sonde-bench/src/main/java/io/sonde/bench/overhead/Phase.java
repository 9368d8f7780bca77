package io.sonde.bench.overhead;

import java.util.Locale;

/** The MooBench phases, in the order they are run and reported. */
public enum Phase {
    /** (a) No agent at all: the baseline every overhead is computed from. */
    NO_INSTRUMENTATION("no-instrumentation"),
    /** (b) The agent is loaded and the method instrumented, but its probes are switched off. */
    DEACTIVATED("deactivated"),
    /** (c) Probes on, records produced and handed to a writer that throws them away. */
    DISCARD("discard"),
    /** (d) Probes on, records written to binary files. */
    FILE("file"),
    /** (e) Probes on, records sent over TCP to a receiver on 127.0.0.1. */
    TCP("tcp");

    private final String label;

    Phase(String label) {
        this.label = label;
    }

    /** The name used in options and output, e.g. {@code no-instrumentation}. */
    public String label() {
        return label;
    }

    /** Parses a phase name as printed by {@link #label()}. */
    public static Phase parse(String text) {
        String wanted = text.trim().toLowerCase(Locale.ROOT);
        for (Phase p : values()) {
            if (p.label.equals(wanted)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown phase '" + text
                + "' (expected no-instrumentation, deactivated, discard, file or tcp)");
    }
}
