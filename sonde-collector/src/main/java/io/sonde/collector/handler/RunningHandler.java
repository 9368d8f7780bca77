package io.sonde.collector.handler;

import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.envelope.StreamInfo;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/** A handler as the collector runs it: its counters and how frames reach it (inline or queued). */
abstract class RunningHandler {
    /** Errors reported one by one; after that only counted (a handler failing on every frame would flood the log). */
    static final int REPORTED_ERRORS = 10;

    final DataHandler handler;
    final AtomicLong handled = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final Consumer<String> notices;
    private volatile String lastError;
    private volatile String state = "not open";

    RunningHandler(DataHandler handler, Consumer<String> notices) {
        this.handler = handler;
        this.notices = notices;
    }

    /** Opens the handler; a failure disables it (reported) but is not thrown. Returns true if open. */
    final boolean open(HandlerConfig config) {
        try {
            handler.open(config);
            state = "running";
            start();
            return true;
        } catch (Exception | LinkageError e) {
            state = "failed to open: " + message(e);
            notice("failed to open, disabled: " + message(e));
            return false;
        }
    }

    final boolean isOpen() {
        return "running".equals(state);
    }

    void start() {}

    abstract void streamStarted(StreamInfo stream) throws Exception;

    abstract void frame(Envelope e) throws Exception;

    abstract void streamEnded(StreamInfo stream, boolean clean) throws Exception;

    /** Makes what the handler took for the stream durable; only lossless handlers have anything to force. */
    void force(StreamInfo stream) throws Exception {}

    /** Delivers what is pending and closes the handler; false if that took longer than allowed. */
    abstract boolean finish(long timeoutMillis);

    abstract HandlerStatus status();

    final HandlerStatus status(boolean lossless, long dropped, long droppedBytes, int queued) {
        return new HandlerStatus(handler.name(), lossless, state, handled.get(), dropped, droppedBytes, queued, errors.get(), lastError);
    }

    /** Calls the handler, counting and reporting what it throws instead of passing it on. */
    final void call(String what, ThrowingCall c) {
        try {
            c.run();
        } catch (Exception | LinkageError | StackOverflowError e) {
            failed(what, e);
        }
    }

    final void failed(String what, Throwable e) {
        lastError = what + ": " + message(e);
        if (errors.incrementAndGet() <= REPORTED_ERRORS) {
            notice(what + " failed: " + message(e) + (errors.get() == REPORTED_ERRORS ? " (further errors only counted)" : ""));
        }
    }

    final void closeHandler() {
        if (isOpen()) {
            call("close", handler::close);
            state = "closed";
        }
    }

    final void notice(String text) {
        notices.accept("handler " + handler.name() + ": " + text);
    }

    static String message(Throwable e) {
        return e.getMessage() == null ? e.toString() : e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    interface ThrowingCall {
        void run() throws Exception;
    }
}
