package io.sonde.dashboard.live;

import io.sonde.observer.Observer;
import io.sonde.observer.ObserverClient;
import java.io.IOException;
import java.util.List;

/**
 * How the dashboard reaches the observe endpoint of an agent: the function "agent -> observer
 * connection" of the live pages. {@link DirectLiveLink} connects to one endpoint ({@code sonde
 * dashboard --observe HOST:PORT}); {@link RelayedLiveLink} goes through a collector ({@code sonde
 * collector --http}).
 */
public interface LiveLink {
    /** The agents that can be watched, by the names the pages show and pass back. */
    List<String> agents() throws IOException;

    /**
     * Connects to {@code agent}'s endpoint as an observer.
     *
     * @param token the token to authenticate with; null: the dashboard's own (given at its start).
     *              Management actions always pass the token the user typed in the page.
     * @throws IOException if the agent is unknown, cannot be reached, or refuses the token
     *                     ({@link io.sonde.observer.ObserveException} with code 1, BAD_TOKEN)
     */
    ObserverClient connect(String agent, String token, Observer observer) throws IOException;

    /** Who may switch probes and suspend sensors through this link: one sentence for the probes page. */
    String whoMayAct();
}
