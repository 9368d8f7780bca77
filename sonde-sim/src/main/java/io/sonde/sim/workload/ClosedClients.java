package io.sonde.sim.workload;

import io.sonde.sim.blocks.Request;
import io.sonde.sim.blocks.RequestSink;
import io.sonde.sim.engine.Event;
import io.sonde.sim.engine.Simulation;
import io.sonde.sim.random.SampleSource;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * A closed workload: N clients, each with at most one outstanding request. A client sends a
 * request, waits for the reply, thinks for a time drawn from the think-time source (0 for none),
 * and sends the next, until it has sent its quota. Client {@code i}'s requests carry
 * {@code client() == i} and go to {@code targetOf.apply(i)} (its own connection, or a shared one).
 * All clients send their first request at {@link #start()} time (after an initial think time if
 * {@link #thinkFirst(boolean)} is set).
 */
public final class ClosedClients {
    private final Simulation sim;
    private final SampleSource think;
    private final long requestsPerClient;
    private final RequestSink recorder;
    private final Client[] clients;
    private Runnable whenAllDone;
    private int done;
    private boolean thinkFirst;

    /**
     * @param sim the simulation
     * @param count number of clients, at least 1
     * @param think think times in ms between a reply and the next request
     * @param targetOf the sink for client i's requests
     * @param requestsPerClient requests each client sends ({@code Long.MAX_VALUE}: forever)
     * @param recorder receives each reply (e.g. a {@link ResponseRecorder}); may be null
     */
    public ClosedClients(Simulation sim, int count, SampleSource think, IntFunction<? extends RequestSink> targetOf,
            long requestsPerClient, RequestSink recorder) {
        this.sim = Objects.requireNonNull(sim, "sim");
        if (count < 1) {
            throw new IllegalArgumentException("client count must be >= 1, got " + count);
        }
        if (requestsPerClient < 1) {
            throw new IllegalArgumentException("requests per client must be >= 1, got " + requestsPerClient);
        }
        this.think = Objects.requireNonNull(think, "think");
        this.requestsPerClient = requestsPerClient;
        this.recorder = recorder;
        this.clients = new Client[count];
        for (int i = 0; i < count; i++) {
            RequestSink target = Objects.requireNonNull(targetOf.apply(i), "target of client " + i);
            clients[i] = new Client(i, target);
        }
    }

    /** Runs {@code action} (e.g. {@code sim::stop}) when every client has received its last reply. */
    public ClosedClients whenAllDone(Runnable action) {
        this.whenAllDone = action;
        return this;
    }

    /** Whether clients think before their first request (default false). */
    public ClosedClients thinkFirst(boolean value) {
        this.thinkFirst = value;
        return this;
    }

    /** Starts every client. */
    public ClosedClients start() {
        for (Client c : clients) {
            if (thinkFirst) {
                c.thinkThenSend();
            } else {
                sim.schedule(c.send, 0);
            }
        }
        return this;
    }

    /** Number of clients. */
    public int size() {
        return clients.length;
    }

    /** Replies received by all clients. */
    public long repliesReceived() {
        long n = 0;
        for (Client c : clients) {
            n += c.replies;
        }
        return n;
    }

    private final class Client implements RequestSink {
        final int index;
        final RequestSink target;
        long sent;
        long replies;
        boolean outstanding;
        final Event send = new Event() {
            @Override
            protected void fire() {
                sendOne();
            }
        };

        Client(int index, RequestSink target) {
            this.index = index;
            this.target = target;
        }

        void sendOne() {
            sent++;
            outstanding = true;
            Request r = new Request(sim, this).setClient(index);
            target.accept(r);
        }

        void thinkThenSend() {
            double z = think.next();
            if (!(z >= 0) || Double.isInfinite(z)) {
                throw new IllegalStateException("think time sample " + z + " is not a finite value >= 0");
            }
            sim.schedule(send, z);
        }

        @Override
        public void accept(Request r) {
            if (!outstanding || r.client() != index) {
                throw new IllegalStateException("client " + index + " got a reply to " + r + " it is not waiting for");
            }
            outstanding = false;
            replies++;
            if (recorder != null) {
                recorder.accept(r);
            }
            if (sent < requestsPerClient) {
                thinkThenSend();
            } else if (++done == clients.length && whenAllDone != null) {
                whenAllDone.run();
            }
        }
    }
}
