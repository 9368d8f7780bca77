package io.sonde.bench.mooms;

import io.sonde.format.observe.DeliveryQos;
import java.time.Duration;

/**
 * One measured configuration of the server.
 *
 * @param system  {@code none} (un-instrumented), {@code idle} (Sonde's tree and sensors, nobody
 *                subscribed), {@code sonde} (observers over TCP) or {@code jmx} (listeners through
 *                the remote connector)
 * @param qos     the observers' QoS label ({@code immediate}, {@code batch-10}, {@code periodic-10ms}),
 *                or {@code ""}
 * @param deliveryQos the QoS itself, or null
 * @param readers observers or JMX listeners (0 for none and idle)
 */
record Configuration(String system, String qos, DeliveryQos deliveryQos, int readers) {

    static Configuration none() {
        return new Configuration("none", "", null, 0);
    }

    static Configuration idle() {
        return new Configuration("idle", "", null, 0);
    }

    static Configuration sonde(String qosLabel, Duration batchFlush, int observers) {
        return new Configuration("sonde", qosLabel, parseQos(qosLabel, batchFlush), observers);
    }

    static Configuration jmx(int listeners) {
        return new Configuration("jmx", "", null, listeners);
    }

    /** The workload the server runs for this configuration. */
    String workload() {
        return switch (system) {
            case "none" -> "none";
            case "jmx" -> "jmx";
            default -> "sonde";
        };
    }

    /** Observer sessions that must be open while it runs (the server checks). */
    int sessions() {
        return system.equals("sonde") ? readers : 0;
    }

    /** {@code sonde batch-10 x5}, {@code jmx x0}, {@code none}. */
    String name() {
        return switch (system) {
            case "none", "idle" -> system;
            case "jmx" -> "jmx x" + readers;
            default -> "sonde " + qos + " x" + readers;
        };
    }

    /**
     * {@code immediate}, {@code batch-N} (flush after {@code batchFlush}), {@code periodic-Nms}.
     *
     * @throws IllegalArgumentException naming the label when it is none of these
     */
    static DeliveryQos parseQos(String label, Duration batchFlush) {
        try {
            if (label.equals("immediate")) return DeliveryQos.immediate();
            if (label.startsWith("batch-")) {
                int n = Integer.parseInt(label.substring(6));
                if (n >= 1) return DeliveryQos.batch(n, batchFlush);
            } else if (label.startsWith("periodic-") && label.endsWith("ms")) {
                long ms = Long.parseLong(label.substring(9, label.length() - 2));
                if (ms >= 1) return DeliveryQos.periodic(Duration.ofMillis(ms));
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("option --qos: '" + label + "' is not immediate, batch-N (N >= 1) or periodic-Nms (N >= 1)");
    }
}
