package io.sonde.collector.receive;

import io.sonde.format.stream.DeliveryMessage;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per agent, the highest frame sequence number stored and the one connection delivering the
 * agent's acknowledged stream. Frames numbered at or below the highest are duplicates (a 2.2 agent
 * sends each agent's frames in increasing order, re-sending from the number the ACCEPT gave it).
 */
final class DeliveryLedger {
    /** One agent's state; guarded by itself. */
    static final class Agent {
        private long held;
        private Connection owner;

        Agent(long held) {
            this.held = held;
        }

        synchronized long held() {
            return held;
        }

        synchronized void stored(long sequence) {
            held = Math.max(held, sequence);
        }

        /**
         * Connection {@code c} could not make its frames after {@code acknowledged} durable: they are
         * not held any more (unless another connection owns the stream by now).
         */
        synchronized void unstore(long acknowledged, Connection c) {
            if (owner == c) {
                held = Math.min(held, acknowledged);
            }
        }
    }

    private final Map<UUID, Agent> agents = new ConcurrentHashMap<>();

    DeliveryLedger(Map<UUID, Long> recovered) {
        recovered.forEach((id, held) -> agents.put(id, new Agent(held)));
    }

    /** What was left from an earlier run of the archive plus what this receiver stored since. */
    long held(UUID agent) {
        Agent a = agents.get(agent);
        return a == null ? -1 : a.held();
    }

    /**
     * Makes {@code c} the agent's only connection: a connection of the same agent still open (the
     * agent reconnected before this receiver noticed the old one broke) is closed first and waited
     * for, so its frames are stored and forced before the answer. Returns the agent's state and the
     * number to ACCEPT with.
     *
     * @param loss told (once) when the agent says a collector acknowledged more than is held here
     */
    Agent open(UUID agent, Connection c, DeliveryMessage.Hello hello, java.util.function.Consumer<String> loss) {
        Agent a = agents.computeIfAbsent(agent, id -> new Agent(-1));
        Connection previous;
        synchronized (a) {
            previous = a.owner;
            a.owner = c;
        }
        boolean previousEnded = previous == null || previous == c || previous.supersede();
        synchronized (a) {
            if (!previousEnded) {
                // still making frames durable (e.g. waiting for Kafka): only what it acknowledged counts as held
                a.held = Math.min(a.held, previous.acknowledged());
            }
            if (hello.next() == 0) {
                a.held = -1; // the agent's process sealed nothing yet: a new run of this agent id
            }
            if (hello.acknowledged() > a.held) {
                loss.accept("agent " + agent + " had frames up to " + hello.acknowledged() + " acknowledged, but this archive holds "
                        + (a.held < 0 ? "none of its current run" : "only up to " + a.held) + ": frames " + (a.held + 1) + ".."
                        + hello.acknowledged() + " are lost on the collector's side");
                a.held = hello.acknowledged();
            }
        }
        return a;
    }

    /** The connection ended: it no longer owns the agent's stream. */
    void closed(UUID agent, Connection c) {
        Agent a = agents.get(agent);
        if (a != null) {
            synchronized (a) {
                if (a.owner == c) {
                    a.owner = null;
                }
            }
        }
    }
}
