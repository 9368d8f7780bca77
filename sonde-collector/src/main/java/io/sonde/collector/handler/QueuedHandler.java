package io.sonde.collector.handler;

import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.envelope.StreamInfo;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Runs one queued handler on its own thread behind a queue bounded in frames and in bytes. Frames
 * beyond either bound are dropped for this handler and counted; stream events (a few per
 * connection) always go in, so the handler sees every stream start and end.
 */
final class QueuedHandler extends RunningHandler {
    /** Marks the end of the queue: everything before it is handled, then the handler is closed. */
    private static final Object END = new Object();
    private static final long FLUSH_NANOS = 1_000_000_000L;

    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final int maxFrames;
    private final long maxBytes;
    private final AtomicInteger queuedFrames = new AtomicInteger();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong droppedBytes = new AtomicLong();
    private final Thread thread;

    QueuedHandler(DataHandler handler, int maxFrames, long maxBytes, Consumer<String> notices) {
        super(handler, notices);
        this.maxFrames = maxFrames;
        this.maxBytes = maxBytes;
        this.thread = new Thread(this::run, "sonde-handler-" + handler.name());
        this.thread.setDaemon(true);
    }

    @Override
    void start() {
        thread.start();
    }

    @Override
    void streamStarted(StreamInfo stream) {
        queue.add(new StreamEvent(stream, true, true));
    }

    @Override
    void frame(Envelope e) {
        if (!isOpen()) {
            drop(e);
            return;
        }
        // Reserve room first; undo if over a bound (several connection threads race here).
        int frames = queuedFrames.incrementAndGet();
        long bytes = queuedBytes.addAndGet(e.length());
        if (frames > maxFrames || bytes > maxBytes) {
            queuedFrames.decrementAndGet();
            queuedBytes.addAndGet(-e.length());
            drop(e);
            return;
        }
        queue.add(e);
    }

    private void drop(Envelope e) {
        dropped.incrementAndGet();
        droppedBytes.addAndGet(e.length());
    }

    @Override
    void streamEnded(StreamInfo stream, boolean clean) {
        queue.add(new StreamEvent(stream, false, clean));
    }

    /** Lets the handler finish its queue, then closes it; waits at most the given time for that. */
    @Override
    boolean finish(long timeoutMillis) {
        queue.add(END);
        try {
            thread.join(timeoutMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            notice("did not finish its queue within " + timeoutMillis + " ms (" + queuedFrames.get() + " frames left); closing without it");
            return false;
        }
        return true;
    }

    private void run() {
        long lastFlush = System.nanoTime();
        try {
            while (true) {
                Object item = queue.poll(200, TimeUnit.MILLISECONDS);
                if (item == END) {
                    break;
                }
                if (item instanceof Envelope e) {
                    queuedFrames.decrementAndGet();
                    queuedBytes.addAndGet(-e.length());
                    if (isOpen()) {
                        call("handle", () -> handler.handle(e));
                        handled.incrementAndGet();
                    }
                } else if (item instanceof StreamEvent s && isOpen()) {
                    if (s.start) {
                        call("streamStarted", () -> handler.streamStarted(s.stream));
                    } else {
                        call("streamEnded", () -> handler.streamEnded(s.stream, s.clean));
                    }
                }
                if (System.nanoTime() - lastFlush >= FLUSH_NANOS && isOpen()) {
                    call("flush", handler::flush);
                    lastFlush = System.nanoTime();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (isOpen()) {
            call("flush", handler::flush);
        }
        closeHandler();
    }

    @Override
    HandlerStatus status() {
        return status(false, dropped.get(), droppedBytes.get(), queuedFrames.get());
    }

    private record StreamEvent(StreamInfo stream, boolean start, boolean clean) {}
}
