package io.sonde.sim.blocks;

import io.sonde.sim.engine.Simulation;
import io.sonde.sim.random.SampleSource;
import java.util.Objects;

/**
 * A one-way network path: each request is transmitted FIFO at a bandwidth (if one is given,
 * taking {@code sizeBytes / bandwidth} ms on the wire, so requests queue behind each other) and
 * then propagates for a latency drawn per request (requests in flight do not interfere), after
 * which it is handed to the destination.
 */
public final class NetworkLink implements RequestSink {
    private final Simulation sim;
    private final String name;
    private final SampleSource latency;
    private final double bytesPerMs;
    private final RequestSink destination;
    private double wireFreeAt;

    /** A link with only a latency (infinite bandwidth). */
    public NetworkLink(Simulation sim, String name, SampleSource latency, RequestSink destination) {
        this(sim, name, latency, Double.POSITIVE_INFINITY, destination);
    }

    /**
     * A link with a latency and a bandwidth.
     *
     * @param bytesPerMs bandwidth in bytes per ms ({@code POSITIVE_INFINITY}: none)
     */
    public NetworkLink(Simulation sim, String name, SampleSource latency, double bytesPerMs, RequestSink destination) {
        this.sim = Objects.requireNonNull(sim, "sim");
        this.name = Objects.requireNonNull(name, "name");
        this.latency = Objects.requireNonNull(latency, "latency");
        this.destination = Objects.requireNonNull(destination, "destination");
        if (!(bytesPerMs > 0)) {
            throw new IllegalArgumentException("network link " + name + ": bandwidth must be > 0, got " + bytesPerMs);
        }
        this.bytesPerMs = bytesPerMs;
    }

    /** The link's name. */
    public String name() {
        return name;
    }

    @Override
    public void accept(Request r) {
        double now = sim.now();
        double sent = now;
        if (bytesPerMs != Double.POSITIVE_INFINITY && r.sizeBytes() > 0) {
            // FIFO transmission: the wire is a single server, so its departure time is known now.
            double start = Math.max(now, wireFreeAt);
            wireFreeAt = start + r.sizeBytes() / bytesPerMs;
            sent = wireFreeAt;
        }
        double l = latency.next();
        if (!(l >= 0) || Double.isInfinite(l)) {
            throw new IllegalStateException("network link " + name + ": latency sample " + l + " is not a finite value >= 0");
        }
        r.deliverAt(sent + l, destination);
    }
}
