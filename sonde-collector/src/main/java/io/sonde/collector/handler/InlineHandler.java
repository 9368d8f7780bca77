package io.sonde.collector.handler;

import io.sonde.collector.envelope.Envelope;
import io.sonde.collector.envelope.StreamInfo;

/** Runs a lossless handler on the connection threads: what it throws fails that connection (counted here, passed on). */
final class InlineHandler extends RunningHandler {
    InlineHandler(DataHandler handler, java.util.function.Consumer<String> notices) {
        super(handler, notices);
    }

    @Override
    void streamStarted(StreamInfo stream) throws Exception {
        passOn("streamStarted", () -> handler.streamStarted(stream));
    }

    @Override
    void frame(Envelope e) throws Exception {
        if (!isOpen()) return;
        try {
            passOn("handle", () -> handler.handle(e));
        } finally {
            handled.incrementAndGet();
        }
    }

    @Override
    void force(StreamInfo stream) throws Exception {
        passOn("force", () -> handler.force(stream));
    }

    @Override
    void streamEnded(StreamInfo stream, boolean clean) throws Exception {
        passOn("streamEnded", () -> handler.streamEnded(stream, clean));
    }

    private interface Step {
        void run() throws Exception;
    }

    /** Runs one call of an open handler; what it throws is counted and thrown on (it fails the connection). */
    private void passOn(String what, Step step) throws Exception {
        if (isOpen()) {
            try {
                step.run();
            } catch (Exception e) {
                failed(what, e);
                throw e;
            }
        }
    }

    @Override
    boolean finish(long timeoutMillis) {
        if (isOpen()) {
            call("flush", handler::flush);
        }
        closeHandler();
        return true;
    }

    @Override
    HandlerStatus status() {
        return status(true, 0, 0, 0);
    }
}
