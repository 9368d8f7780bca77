package io.sonde.dashboard.live;

import io.sonde.observer.Observer;
import io.sonde.observer.ObserverClient;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * One observe endpoint reached directly ({@code sonde dashboard --observe HOST:PORT --token-file F}),
 * e.g. of {@code ./sonde demo --live} or of an application run with the agent's {@code observe=on}.
 * Its one agent is named {@code HOST:PORT}.
 */
public final class DirectLiveLink implements LiveLink {
    private final String host;
    private final int port;
    private final String token;
    private final String tokenSource;
    private final SSLContext tls;

    /**
     * @param token       the token the dashboard observes with
     * @param tokenSource where that token came from (a file name), for the probes page's "who may act"
     */
    public DirectLiveLink(String host, int port, String token, String tokenSource) {
        this(host, port, token, tokenSource, null);
    }

    /**
     * As {@link #DirectLiveLink(String, int, String, String)}, over TLS with {@code tls} (a context
     * trusting the endpoint's certificate, see {@link ObserverClient#trusting}; the certificate must
     * name {@code host}); null: plain TCP.
     */
    public DirectLiveLink(String host, int port, String token, String tokenSource, SSLContext tls) {
        this.tls = tls;
        this.host = Objects.requireNonNull(host, "host");
        if (port < 1 || port > 65535) throw new IllegalArgumentException("observe port must be 1..65535, got " + port);
        this.port = port;
        this.token = Objects.requireNonNull(token, "token");
        this.tokenSource = tokenSource;
    }

    /** The name of the one agent: {@code HOST:PORT}. */
    public String name() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    @Override
    public List<String> agents() {
        return List.of(name());
    }

    @Override
    public ObserverClient connect(String agent, String token, Observer observer) throws IOException {
        if (!name().equals(agent)) throw new IOException("unknown agent '" + agent + "': this dashboard observes " + name() + " only");
        return ObserverClient.connect(host, port, token == null ? this.token : token, observer, tls);
    }

    @Override
    public String whoMayAct() {
        return "Whoever holds the observe token of " + name() + " (the contents of " + tokenSource
                + ") may switch probes and suspend sensors; the dashboard forwards the token typed here and keeps none.";
    }
}
