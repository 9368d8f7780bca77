package io.sonde.format.stream;

/** One handshake or acknowledgement message of acknowledged delivery (docs/format.md section 8). */
public sealed interface DeliveryMessage {
    /**
     * The agent's opening frame.
     *
     * @param token the collector's token, empty if the agent has none
     * @param acknowledged the highest sequence number a collector acknowledged to this agent process, or {@link DeliveryProtocol#NONE}
     * @param next the sequence number the agent's next new frame will get (0 until the process sealed a frame: a new run)
     * @param observe the agent's observe endpoint (since 2.3), or null when it announces none
     */
    record Hello(String token, long acknowledged, long next, ObserveEndpoint observe) implements DeliveryMessage {
        /** A HELLO without an observe endpoint (2.2). */
        public Hello(String token, long acknowledged, long next) {
            this(token, acknowledged, next, null);
        }
    }

    /** The collector takes the stream; it holds (durably) the agent's frames up to {@code held} ({@link DeliveryProtocol#NONE}: none). */
    record Accept(long held) implements DeliveryMessage {}

    /** The collector does not take the stream; {@code reason} says why, for people. */
    record Refuse(int code, String reason) implements DeliveryMessage {}

    /** Every frame of the agent up to {@code durable} is durable at the collector. */
    record Ack(long durable) implements DeliveryMessage {}
}
