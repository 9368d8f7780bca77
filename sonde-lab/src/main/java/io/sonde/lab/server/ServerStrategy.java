package io.sonde.lab.server;

import java.util.Locale;

/**
 * The four threading strategies of the lab server, the ones of the thesis' ORBacus server
 * (chapter 4.3) and of sonde-sim's middleware models, spelled as there.
 */
public enum ServerStrategy {
    /** One receiver thread per connection receives, dispatches, runs the servant and replies. */
    THREAD_PER_CLIENT("thread-per-client"),
    /** As thread-per-client, but one server-wide lock serialises dispatch and servant. */
    THREADED("threaded"),
    /** The receiver starts a new dispatcher thread for every request; it dies after the reply. */
    THREAD_PER_REQUEST("thread-per-request"),
    /** The receiver puts the request in a FIFO queue served by a fixed pool of dispatchers. */
    THREAD_POOL("thread-pool");

    private final String spelling;

    ServerStrategy(String spelling) {
        this.spelling = spelling;
    }

    /** The command-line spelling. */
    public String spelling() {
        return spelling;
    }

    /** Parses the command-line spelling; the error lists the valid ones. */
    public static ServerStrategy parse(String s) {
        for (ServerStrategy st : values()) {
            if (st.spelling.equals(s.toLowerCase(Locale.ROOT))) {
                return st;
            }
        }
        throw new IllegalArgumentException("unknown strategy '" + s
                + "' (expected thread-per-client, threaded, thread-per-request or thread-pool)");
    }
}
