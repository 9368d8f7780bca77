package io.sonde.dashboard.live;

import io.sonde.observer.Observer;
import io.sonde.observer.ObserverClient;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The agents of a collector, each reached through the collector's relay ({@code sonde collector
 * --http}): the collector command supplies the list of agents and the relay's connect function
 * (the collector relay's {@code ObserverClient.connectRelayed(host, port, token, agentName)}).
 */
public final class RelayedLiveLink implements LiveLink {
    /** Opens an observer connection to one agent through the collector. */
    @FunctionalInterface
    public interface Relay {
        ObserverClient connect(String agent, String token, Observer observer) throws IOException;
    }

    private final Supplier<List<String>> agents;
    private final Relay relay;
    private final String who;

    /**
     * @param agents the names of the agents the collector knows (as its naming endpoint lists them)
     * @param relay  connects through the collector; a null token there means the collector's own
     * @param who    who may act, for the probes page
     */
    public RelayedLiveLink(Supplier<List<String>> agents, Relay relay, String who) {
        this.agents = Objects.requireNonNull(agents, "agents");
        this.relay = Objects.requireNonNull(relay, "relay");
        this.who = Objects.requireNonNull(who, "who");
    }

    @Override
    public List<String> agents() {
        return agents.get();
    }

    @Override
    public ObserverClient connect(String agent, String token, Observer observer) throws IOException {
        if (!agents.get().contains(agent)) throw new IOException("unknown agent '" + agent + "': the collector does not know it");
        return relay.connect(agent, token, observer);
    }

    @Override
    public String whoMayAct() {
        return who;
    }
}
