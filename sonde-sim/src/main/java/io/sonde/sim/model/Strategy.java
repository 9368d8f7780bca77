package io.sonde.sim.model;

import io.sonde.sim.engine.Simulation;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The four ORBacus threading strategies of the thesis, chapter 4.3. Each is simulated by its own
 * {@link OrbServer} subclass.
 */
public enum Strategy {
    /** One receiver thread per connection receives and dispatches (4.3.1). */
    THREAD_PER_CLIENT("thread-per-client", ThreadPerClientServer::new, ThreadPerClientServer.MEASURES),
    /** Like thread-per-client, but an ORB-wide mutex serialises servant execution (4.3.2). */
    THREADED("threaded", ThreadedServer::new, ThreadedServer.MEASURES),
    /** The receiver creates a dispatcher thread per request, which dies afterwards (4.3.3). */
    THREAD_PER_REQUEST("thread-per-request", ThreadPerRequestServer::new, ThreadPerRequestServer.MEASURES),
    /** The receiver puts requests in a FIFO queue served by a fixed pool of dispatchers (4.3.4). */
    THREAD_POOL("thread-pool", ThreadPoolServer::new, ThreadPoolServer.MEASURES);

    private final String cliName;
    private final BiFunction<Simulation, MiddlewareConfig, OrbServer> server;
    private final Set<String> measures;

    Strategy(String cliName, BiFunction<Simulation, MiddlewareConfig, OrbServer> server, Set<String> measures) {
        this.cliName = cliName;
        this.server = server;
        this.measures = measures;
    }

    /** One replication of {@code cfg} on {@code sim} with this strategy. */
    OrbServer server(Simulation sim, MiddlewareConfig cfg) {
        return server.apply(sim, cfg);
    }

    /** The measures only some strategies have that this one has (see {@link OrbServer#STRATEGY_MEASURES}). */
    Set<String> measures() {
        return measures;
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
