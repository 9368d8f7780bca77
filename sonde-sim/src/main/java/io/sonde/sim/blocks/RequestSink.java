package io.sonde.sim.blocks;

import io.sonde.sim.random.RandomStream;
import java.util.List;
import java.util.Objects;

/**
 * Anything a request can be handed to: a {@link RequestQueue}, a {@link NetworkLink}, a client
 * waiting for its reply, a response-time recorder.
 */
@FunctionalInterface
public interface RequestSink {
    /** Takes {@code request} now. */
    void accept(Request request);

    /** A sink that hands requests to {@code sinks} in turn (1st, 2nd, ..., 1st, ...). */
    static RequestSink roundRobin(List<? extends RequestSink> sinks) {
        if (sinks.isEmpty()) {
            throw new IllegalArgumentException("round-robin needs at least one sink");
        }
        RequestSink[] s = sinks.toArray(new RequestSink[0]);
        return new RequestSink() {
            private int next;

            @Override
            public void accept(Request r) {
                RequestSink target = s[next];
                next = next + 1 == s.length ? 0 : next + 1;
                target.accept(r);
            }
        };
    }

    /** A sink that hands each request to one of {@code sinks} chosen uniformly at random. */
    static RequestSink random(RandomStream stream, List<? extends RequestSink> sinks) {
        Objects.requireNonNull(stream, "stream");
        if (sinks.isEmpty()) {
            throw new IllegalArgumentException("random routing needs at least one sink");
        }
        RequestSink[] s = sinks.toArray(new RequestSink[0]);
        return r -> s[stream.nextInt(s.length)].accept(r);
    }
}
