package io.sonde.lab.model;

import io.sonde.lab.load.ServantSpec;
import java.util.Locale;

/**
 * The three servant kinds of the lab's validation (issue 13): a small and a larger CPU demand and
 * a delay, all exponentially distributed as in the thesis' section 5.4 experiments.
 */
public enum LabServant {
    /** 1 ms of CPU time. */
    CPU_SMALL("cpu-small", new ServantSpec(false, 1_000_000, true)),
    /** 5 ms of CPU time. */
    CPU_LARGE("cpu-large", new ServantSpec(false, 5_000_000, true)),
    /** A 10 ms sleep. */
    DELAY("delay", new ServantSpec(true, 10_000_000, true));

    private final String spelling;
    private final ServantSpec spec;

    LabServant(String spelling, ServantSpec spec) {
        this.spelling = spelling;
        this.spec = spec;
    }

    /** The name in reports ({@code cpu-small}, {@code cpu-large}, {@code delay}). */
    public String spelling() {
        return spelling;
    }

    /** What each request asks for. */
    public ServantSpec spec() {
        return spec;
    }

    /** Parses the spelling. */
    public static LabServant parse(String s) {
        for (LabServant k : values()) {
            if (k.spelling.equals(s.toLowerCase(Locale.ROOT))) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown servant kind '" + s + "' (expected cpu-small, cpu-large or delay)");
    }
}
