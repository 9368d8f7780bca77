package io.sonde.collector.receive;

import java.util.Map;
import java.util.UUID;

/**
 * How a receiver treats acknowledged delivery (format 2.2): the token agents must present, and
 * what the archive already held at start (per agent, the highest frame sequence number), so that
 * frames an agent re-sends after a receiver restart are recognised as duplicates.
 *
 * @param token the token agents must send in HELLO; null: none required (then 2.0 streams are taken too)
 * @param held per agent, the highest sequence number stored before this receiver started
 */
public record Delivery(String token, Map<UUID, Long> held) {
    public Delivery {
        held = Map.copyOf(held);
    }

    /** No token, nothing held. */
    public static Delivery open() {
        return new Delivery(null, Map.of());
    }

    /** True if agents must present a token. */
    public boolean tokenRequired() {
        return token != null;
    }
}
