package io.sonde.sim.model;

import java.util.Locale;

/** The four ORBacus threading strategies of the thesis, chapter 4.3. */
public enum Strategy {
    /** One receiver thread per connection receives and dispatches (4.3.1). */
    THREAD_PER_CLIENT("thread-per-client"),
    /** Like thread-per-client, but an ORB-wide mutex serialises servant execution (4.3.2). */
    THREADED("threaded"),
    /** The receiver creates a dispatcher thread per request, which dies afterwards (4.3.3). */
    THREAD_PER_REQUEST("thread-per-request"),
    /** The receiver puts requests in a FIFO queue served by a fixed pool of dispatchers (4.3.4). */
    THREAD_POOL("thread-pool");

    private final String cliName;

    Strategy(String cliName) {
        this.cliName = cliName;
    }

    /** The spelling used on the command line and in output. */
    public String cliName() {
        return cliName;
    }

    /** Parses the command-line spelling. */
    public static Strategy parse(String s) {
        for (Strategy st : values()) {
            if (st.cliName.equals(s.toLowerCase(Locale.ROOT))) {
                return st;
            }
        }
        throw new IllegalArgumentException("unknown strategy '" + s
                + "' (expected thread-per-client, threaded, thread-per-request or thread-pool)");
    }
}
