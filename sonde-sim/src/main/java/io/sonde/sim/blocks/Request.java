package io.sonde.sim.blocks;

import io.sonde.sim.engine.Event;
import io.sonde.sim.engine.Simulation;
import java.util.Arrays;

/**
 * A unit of work travelling through a model: created by an arrival process or a client, queued,
 * processed by threads, forwarded, and finally replied to its {@link #replyTo()} sink.
 *
 * <p>It carries time stamps so that models can measure any span: {@link #created()}, the time it
 * last entered a queue ({@link #enqueuedAt()}), and numbered stamp slots that model steps set
 * ({@code Program.Builder.mark(slot)}) and read ({@link #stamp(int)}). Slots hold NaN until set.
 */
public final class Request {
    private final Simulation sim;
    private final long id;
    private final double created;
    private final RequestSink replyTo;
    private int type;
    private int client = -1;
    private double sizeBytes;
    private double[] stamps;
    private double enqueuedAt = Double.NaN;
    private Object attachment;
    private SimThread[] callers;
    private int callerDepth;
    private Event transit;
    private RequestSink transitTarget;

    /**
     * A request created now.
     *
     * @param sim the simulation (for the clock and the id)
     * @param replyTo where {@code reply()} sends it when no nested caller waits (may be null if
     *     the model never replies)
     */
    public Request(Simulation sim, RequestSink replyTo) {
        this.sim = sim;
        this.id = sim.nextId();
        this.created = sim.now();
        this.replyTo = replyTo;
    }

    /** Unique id within the replication. */
    public long id() {
        return id;
    }

    /** Creation time (ms). */
    public double created() {
        return created;
    }

    /** Where the reply goes. */
    public RequestSink replyTo() {
        return replyTo;
    }

    /** A model-defined type (e.g. page or image request); 0 by default. */
    public int type() {
        return type;
    }

    /** Sets the type. */
    public Request setType(int type) {
        this.type = type;
        return this;
    }

    /** Index of the client or connection that sent it; -1 when unknown. */
    public int client() {
        return client;
    }

    /** Sets the client index. */
    public Request setClient(int client) {
        this.client = client;
        return this;
    }

    /** Size in bytes (used by network links with a bandwidth); 0 by default. */
    public double sizeBytes() {
        return sizeBytes;
    }

    /** Sets the size in bytes. */
    public Request setSizeBytes(double bytes) {
        this.sizeBytes = bytes;
        return this;
    }

    /** Model data attached to the request. */
    public Object attachment() {
        return attachment;
    }

    /** Attaches model data. */
    public Request setAttachment(Object attachment) {
        this.attachment = attachment;
        return this;
    }

    /** When it last entered a {@link RequestQueue} (NaN if never). */
    public double enqueuedAt() {
        return enqueuedAt;
    }

    void setEnqueuedAt(double t) {
        enqueuedAt = t;
    }

    /** The time stored in stamp slot {@code slot}, NaN if never set. */
    public double stamp(int slot) {
        if (slot < 0) {
            throw new IllegalArgumentException("stamp slot must be >= 0, got " + slot);
        }
        return stamps == null || slot >= stamps.length ? Double.NaN : stamps[slot];
    }

    /** Stores the current time in stamp slot {@code slot}. */
    public void mark(int slot) {
        setStamp(slot, sim.now());
    }

    /** Stores {@code time} in stamp slot {@code slot}. */
    public void setStamp(int slot, double time) {
        if (slot < 0) {
            throw new IllegalArgumentException("stamp slot must be >= 0, got " + slot);
        }
        if (stamps == null || slot >= stamps.length) {
            int n = Math.max(8, slot + 1);
            int old = stamps == null ? 0 : stamps.length;
            stamps = stamps == null ? new double[n] : Arrays.copyOf(stamps, n);
            Arrays.fill(stamps, old, n, Double.NaN);
        }
        stamps[slot] = time;
    }

    /** Time since the stamp in {@code slot} (NaN if the slot was never set). */
    public double since(int slot) {
        return sim.now() - stamp(slot);
    }

    /** Number of threads waiting in nested calls for this request's reply. */
    public int nestedCallers() {
        return callerDepth;
    }

    void pushCaller(SimThread t) {
        if (callers == null) {
            callers = new SimThread[4];
        } else if (callerDepth == callers.length) {
            callers = Arrays.copyOf(callers, callerDepth * 2);
        }
        callers[callerDepth++] = t;
    }

    SimThread popCaller() {
        SimThread t = callers[--callerDepth];
        callers[callerDepth] = null;
        return t;
    }

    /** Delivers this request to {@code target} at absolute time {@code time} (network transit). */
    void deliverAt(double time, RequestSink target) {
        if (transit == null) {
            transit = new Event() {
                @Override
                protected void fire() {
                    RequestSink t = transitTarget;
                    transitTarget = null;
                    t.accept(Request.this);
                }
            };
        } else if (transit.isScheduled()) {
            throw new IllegalStateException("request " + id + " is already in transit on a network link");
        }
        transitTarget = target;
        sim.scheduleAt(transit, time);
    }

    @Override
    public String toString() {
        return "request#" + id;
    }
}
