package io.sonde.collector.handler;

import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.envelope.StreamInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The handlers a collector runs, in the order given: lossless ones inline on the connection
 * threads, the others each on its own thread behind its bounded queue (see {@link DataHandler}).
 * A frame reaches the queued handlers only after every lossless handler took it.
 */
public final class HandlerSet {
    /** Default bound of a queued handler's queue, in frames. */
    public static final int DEFAULT_QUEUE_FRAMES = 16_384;
    /** Default bound of a queued handler's queue, in frame bytes (64 MiB). */
    public static final long DEFAULT_QUEUE_BYTES = 64L << 20;

    private final List<RunningHandler> inline = new ArrayList<>();
    private final List<RunningHandler> queued = new ArrayList<>();
    private final boolean decodes;

    private HandlerSet(List<RunningHandler> inline, List<RunningHandler> queued, boolean decodes) {
        this.inline.addAll(inline);
        this.queued.addAll(queued);
        this.decodes = decodes;
    }

    /** The handlers {@link ServiceLoader} finds on the class path, by name. */
    public static List<DataHandler> available() {
        List<DataHandler> all = new ArrayList<>();
        ServiceLoader.load(DataHandler.class).forEach(all::add);
        return all;
    }

    /**
     * A new instance of each named handler, in that order.
     *
     * @throws IllegalArgumentException for an unknown or repeated name, naming the ones available
     */
    public static List<DataHandler> byName(List<String> names) {
        Set<String> seen = new LinkedHashSet<>();
        List<DataHandler> out = new ArrayList<>();
        for (String name : names) {
            if (!seen.add(name)) {
                throw new IllegalArgumentException("handler '" + name + "' given twice");
            }
            DataHandler found = null;
            for (DataHandler h : available()) { // a fresh instance per lookup
                if (h.name().equals(name)) {
                    found = h;
                    break;
                }
            }
            if (found == null) {
                Set<String> known = new TreeSet<>();
                available().forEach(h -> known.add(h.name()));
                throw new IllegalArgumentException("unknown handler '" + name + "'; available: " + String.join(", ", known));
            }
            out.add(found);
        }
        return out;
    }

    /**
     * Opens the handlers. A queued handler that fails to open is disabled and reported (its frames
     * counted as dropped); a lossless one that fails is an error, since it must not lose anything.
     *
     * @param queueFrames bound of each queued handler's queue in frames
     * @param queueBytes bound of each queued handler's queue in bytes
     * @param notices where problems of handlers are reported, one line each
     * @throws IOException if a lossless handler cannot be opened (those opened before are closed)
     */
    public static HandlerSet open(List<DataHandler> handlers, HandlerConfig config, int queueFrames, long queueBytes, Consumer<String> notices)
            throws IOException {
        List<RunningHandler> inline = new ArrayList<>();
        List<RunningHandler> queued = new ArrayList<>();
        boolean decodes = false;
        for (DataHandler h : handlers) {
            RunningHandler r = h.lossless() ? new InlineHandler(h, notices) : new QueuedHandler(h, queueFrames, queueBytes, notices);
            if (!r.open(config) && h.lossless()) {
                new HandlerSet(inline, queued, false).close(10_000);
                throw new IOException("handler " + h.name() + " cannot start: " + r.status().state());
            }
            (h.lossless() ? inline : queued).add(r);
            decodes |= h.decodes();
        }
        return new HandlerSet(inline, queued, decodes);
    }

    /** True if some handler decodes envelopes. */
    public boolean decodes() {
        return decodes;
    }

    /** True if frames must be copied out of the connection's buffer (a queued handler keeps them, or one decodes later). */
    public boolean needsCopy() {
        return decodes || !queued.isEmpty();
    }

    public boolean isEmpty() {
        return inline.isEmpty() && queued.isEmpty();
    }

    /** Connection thread: a stream started. Throws what a lossless handler threw. */
    public void streamStarted(StreamInfo stream) throws Exception {
        for (RunningHandler h : inline) {
            h.streamStarted(stream);
        }
        for (RunningHandler h : queued) {
            h.streamStarted(stream);
        }
    }

    /** Connection thread: one frame. Throws what a lossless handler threw (the queued ones then do not get it). */
    public void frame(Envelope e) throws Exception {
        for (RunningHandler h : inline) {
            h.frame(e);
        }
        for (RunningHandler h : queued) {
            h.frame(e);
        }
    }

    /** Connection thread: makes what the lossless handlers took for the stream durable. Throws what one threw. */
    public void force(StreamInfo stream) throws Exception {
        for (RunningHandler h : inline) {
            h.force(stream);
        }
    }

    /** Connection thread: a stream ended. Every handler is told; the first exception of a lossless one is thrown afterwards. */
    public void streamEnded(StreamInfo stream, boolean clean) throws Exception {
        Exception first = null;
        for (RunningHandler h : inline) {
            try {
                h.streamEnded(stream, clean);
            } catch (Exception e) {
                first = first == null ? e : first;
            }
        }
        for (RunningHandler h : queued) {
            h.streamEnded(stream, clean);
        }
        if (first != null) {
            throw first;
        }
    }

    /** Counters of every handler, in order. */
    public List<HandlerStatus> status() {
        List<HandlerStatus> s = new ArrayList<>();
        inline.forEach(h -> s.add(h.status()));
        queued.forEach(h -> s.add(h.status()));
        return s;
    }

    /**
     * After the last frame: each queued handler handles what is in its queue, flushes and closes
     * (each gets up to {@code timeoutMillis}), then the lossless ones flush and close.
     *
     * @return true if every queue was drained in time
     */
    public boolean close(long timeoutMillis) {
        boolean all = true;
        for (RunningHandler h : queued) {
            all &= h.finish(timeoutMillis);
        }
        for (RunningHandler h : inline) {
            all &= h.finish(timeoutMillis);
        }
        return all;
    }
}
