package io.sonde.sim.workload;

import io.sonde.sim.blocks.Request;
import io.sonde.sim.blocks.RequestSink;
import io.sonde.sim.engine.Event;
import io.sonde.sim.engine.Simulation;
import io.sonde.sim.random.Distribution;
import io.sonde.sim.random.SampleSource;
import io.sonde.sim.random.TraceReplay;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * An open arrival process: requests arrive at times separated by inter-arrival times drawn from
 * a source, independently of how the system copes. {@link #poisson}, {@link #deterministic} and
 * {@link #trace} build the usual ones. The first request arrives one inter-arrival time after
 * {@link #start()}.
 */
public final class OpenArrivals {
    private final Simulation sim;
    private final SampleSource interArrival;
    private final RequestSink target;
    private final RequestSink replyTo;
    private final long limit;
    private Consumer<Request> initializer;
    private long generated;
    private final Event arrival = new Event() {
        @Override
        protected void fire() {
            arrive();
        }
    };

    /**
     * @param sim the simulation
     * @param interArrival inter-arrival times in ms (a value of +infinity ends the process)
     * @param target receives each new request
     * @param replyTo where the requests' replies go (e.g. a {@link ResponseRecorder})
     * @param limit maximum number of requests ({@code Long.MAX_VALUE}: unbounded)
     */
    public OpenArrivals(Simulation sim, SampleSource interArrival, RequestSink target, RequestSink replyTo, long limit) {
        this.sim = Objects.requireNonNull(sim, "sim");
        this.interArrival = Objects.requireNonNull(interArrival, "interArrival");
        this.target = Objects.requireNonNull(target, "target");
        this.replyTo = replyTo;
        if (limit < 0) {
            throw new IllegalArgumentException("request limit must be >= 0, got " + limit);
        }
        this.limit = limit;
    }

    /** Poisson arrivals at {@code ratePerSecond}, drawn from the stream named {@code streamName}. */
    public static OpenArrivals poisson(Simulation sim, String streamName, double ratePerSecond,
            RequestSink target, RequestSink replyTo, long limit) {
        if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("arrival rate must be finite and > 0 per second, got " + ratePerSecond);
        }
        return new OpenArrivals(sim, sim.sampler(streamName, Distribution.exponential(1000.0 / ratePerSecond)),
                target, replyTo, limit);
    }

    /** Arrivals exactly every {@code 1000 / ratePerSecond} ms. */
    public static OpenArrivals deterministic(Simulation sim, double ratePerSecond, RequestSink target,
            RequestSink replyTo, long limit) {
        if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("arrival rate must be finite and > 0 per second, got " + ratePerSecond);
        }
        return new OpenArrivals(sim, SampleSource.constant(1000.0 / ratePerSecond), target, replyTo, limit);
    }

    /** Replays recorded inter-arrival times (ms) once, in order. */
    public static OpenArrivals trace(Simulation sim, double[] interArrivalsMs, RequestSink target, RequestSink replyTo) {
        return new OpenArrivals(sim, new TraceReplay(interArrivalsMs, false), target, replyTo, interArrivalsMs.length);
    }

    /** Code run on each new request before it is handed on (set its type, client, size...). */
    public OpenArrivals initializer(Consumer<Request> init) {
        this.initializer = init;
        return this;
    }

    /** Starts the process. */
    public OpenArrivals start() {
        scheduleNext();
        return this;
    }

    /** Requests generated so far. */
    public long generated() {
        return generated;
    }

    private void scheduleNext() {
        if (generated >= limit) {
            return;
        }
        double gap = interArrival.next();
        if (gap == Double.POSITIVE_INFINITY) {
            return;
        }
        if (!(gap >= 0)) {
            throw new IllegalStateException("inter-arrival time sample " + gap + " is negative or NaN");
        }
        sim.schedule(arrival, gap);
    }

    private void arrive() {
        Request r = new Request(sim, replyTo);
        generated++;
        if (initializer != null) {
            initializer.accept(r);
        }
        scheduleNext(); // before handing on, so that arrival order at equal times stays FIFO
        target.accept(r);
    }
}
