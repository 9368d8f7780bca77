package io.sonde.sim.workload;

import io.sonde.sim.blocks.Request;
import io.sonde.sim.blocks.RequestSink;
import io.sonde.sim.stats.Measures;
import io.sonde.sim.stats.RateMeter;
import io.sonde.sim.stats.Tally;
import java.util.Objects;

/**
 * The end of a request's life: records its response time (now - created) and counts it for
 * throughput, then tells the {@link Measures} a request completed (warm-up cut, stop rule).
 * Use it as the {@code replyTo} of open arrivals; closed clients use one internally.
 */
public final class ResponseRecorder implements RequestSink {
    private final Measures measures;
    private final Tally responseTimes;
    private final RateMeter throughput;

    /**
     * @param measures the replication's measures
     * @param responseTimes receives response times (ms); may be null
     * @param throughput counts completions; may be null
     */
    public ResponseRecorder(Measures measures, Tally responseTimes, RateMeter throughput) {
        this.measures = Objects.requireNonNull(measures, "measures");
        this.responseTimes = responseTimes;
        this.throughput = throughput;
    }

    /** A recorder into {@code measures.tally(responseName)} and {@code measures.rate(throughputName)}. */
    public static ResponseRecorder of(Measures measures, String responseName, String throughputName) {
        return new ResponseRecorder(measures, measures.tally(responseName), measures.rate(throughputName));
    }

    @Override
    public void accept(Request r) {
        if (responseTimes != null) {
            responseTimes.add(measures.clock().now() - r.created());
        }
        if (throughput != null) {
            throughput.increment();
        }
        measures.completed();
    }
}
