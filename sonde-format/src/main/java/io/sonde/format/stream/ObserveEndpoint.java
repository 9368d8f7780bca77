package io.sonde.format.stream;

/**
 * Where an agent's observe endpoint listens, as its HELLO announces it (format 2.3,
 * docs/format.md section 8.1): the collector relays observers to it.
 *
 * @param host the advertised host name or address; empty: the address the collector sees the agent's connection come from
 * @param port the endpoint's TCP port (1..65535)
 * @param tls true if the endpoint serves TLS
 */
public record ObserveEndpoint(String host, int port, boolean tls) {
    /** HELLO observe flags bit 0: the endpoint serves TLS. */
    public static final int FLAG_TLS = 1;

    public ObserveEndpoint {
        if (host == null) throw new IllegalArgumentException("observe endpoint host: null (empty means the address the collector sees)");
        if (port < 1 || port > 65535) throw new IllegalArgumentException("observe endpoint port " + port + " is not in 1..65535");
    }

    /** This endpoint with an empty host replaced by {@code seen}, the address the collector sees. */
    public ObserveEndpoint resolved(String seen) {
        return host.isEmpty() ? new ObserveEndpoint(seen, port, tls) : this;
    }

    /** host:port, with " (TLS)" when it serves TLS. */
    @Override
    public String toString() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return h + ":" + port + (tls ? " (TLS)" : "");
    }
}
