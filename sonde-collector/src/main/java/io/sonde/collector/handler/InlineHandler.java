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
        if (isOpen()) {
            try {
                handler.streamStarted(stream);
            } catch (Exception e) {
                failed("streamStarted", e);
                throw e;
            }
        }
    }

    @Override
    void frame(Envelope e) throws Exception {
        if (isOpen()) {
            try {
                handler.handle(e);
            } catch (Exception ex) {
                failed("handle", ex);
                throw ex;
            } finally {
                handled.incrementAndGet();
            }
        }
    }

    @Override
    void force(StreamInfo stream) throws Exception {
        if (isOpen()) {
            try {
                handler.force(stream);
            } catch (Exception e) {
                failed("force", e);
                throw e;
            }
        }
    }

    @Override
    void streamEnded(StreamInfo stream, boolean clean) throws Exception {
        if (isOpen()) {
            try {
                handler.streamEnded(stream, clean);
            } catch (Exception e) {
                failed("streamEnded", e);
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
