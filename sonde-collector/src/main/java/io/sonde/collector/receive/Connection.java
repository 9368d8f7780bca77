package io.sonde.collector.receive;

import io.sonde.collector.archive.FrameHandler.StreamSink;
import io.sonde.format.read.FormatException;
import io.sonde.format.read.FormatProblem;
import io.sonde.format.read.FrameHeader;
import io.sonde.format.read.FrameInput;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.UUID;

/** Serves one TCP connection on its own thread: envelope checks, frames to the sink, counters. */
final class Connection {
    private final Receiver receiver;
    private final Socket socket;
    private final String peer;
    private final Thread thread;
    private volatile boolean aborted;
    private volatile StreamSink sink;

    Connection(Receiver receiver, Socket socket) {
        this.receiver = receiver;
        this.socket = socket;
        this.peer = socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
        this.thread = new Thread(this::run, "sonde-receiver-" + peer);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    void join(long millis) {
        try {
            thread.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes socket and file at once (receiver killed). */
    void abort() {
        aborted = true;
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        StreamSink s = sink;
        if (s != null) {
            s.abort();
        }
    }

    private void run() {
        ReceiverListener listener = receiver.listener();
        listener.opened(peer);
        UUID agent = null;
        long frames = 0;
        long bytes = 0;
        FrameInput in = null;
        boolean error = false;
        try {
            socket.setSoTimeout(Receiver.POLL_MILLIS);
            socket.setTcpNoDelay(true);
            InputStream raw = socket.getInputStream();
            in = new FrameInput(raw, peer);
            if (readStreamHeader(in)) {
                Receiver.AgentCounters counters = null;
                while (nextFrame(in)) {
                    FrameHeader h = in.header();
                    if (agent == null) {
                        agent = h.agentId();
                        sink = receiver.handler().open(agent, in.streamHeaderBytes(), peer);
                        counters = receiver.agent(agent);
                        counters.connections.incrementAndGet();
                        if (aborted) {
                            sink.abort();
                            break;
                        }
                    } else if (agent.getMostSignificantBits() != h.agentMostSignificantBits()
                            || agent.getLeastSignificantBits() != h.agentLeastSignificantBits()) {
                        throw new FormatException(peer, h.offset() + 16, FormatProblem.AGENT_CHANGED,
                                "frame of agent " + h.agentId() + " on the connection of agent " + agent);
                    }
                    sink.frame(in.frameBytes(), in.frameLength());
                    frames++;
                    bytes += in.frameLength();
                    counters.frames.incrementAndGet();
                    counters.bytes.addAndGet(in.frameLength());
                    if (receiver.stopping()) {
                        break; // graceful stop: at a frame boundary
                    }
                }
            }
            finish();
            if (!aborted) {
                listener.closed(peer, agent, frames, bytes, target());
            }
        } catch (FormatException e) {
            error = true;
            String detail = e.detail();
            if (e.problem() == FormatProblem.TRUNCATED) {
                detail += "; partial frame discarded";
            }
            finishQuietly();
            listener.failed(peer, e.offset(), detail, agent, frames, target());
        } catch (IOException e) {
            finishQuietly();
            if (!aborted) {
                error = true;
                long at = in == null ? 0 : in.endOfLastFrame() + in.partialBytes();
                String detail = e.getMessage() == null ? e.toString() : e.getMessage();
                if (in != null && in.midFrame()) {
                    detail += "; partial frame of " + in.partialBytes() + " bytes discarded";
                }
                listener.failed(peer, at, "I/O error: " + detail, agent, frames, target());
            }
        } finally {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            receiver.ended(this, error);
        }
    }

    private String target() {
        StreamSink s = sink;
        return s == null ? null : s.target();
    }

    /** Reads the stream header, polling so that a stop is noticed; false if nothing came. */
    private boolean readStreamHeader(FrameInput in) throws IOException {
        while (true) {
            try {
                return in.readStreamHeader();
            } catch (SocketTimeoutException e) {
                if (receiver.stopping() && (in.partialBytes() == 0 || System.nanoTime() > receiver.stopDeadline())) {
                    return false;
                }
            }
        }
    }

    /** Reads the next frame, polling so that a stop is noticed; false at the end of the connection. */
    private boolean nextFrame(FrameInput in) throws IOException {
        while (true) {
            try {
                return in.nextFrame();
            } catch (SocketTimeoutException e) {
                if (receiver.stopping()) {
                    if (!in.midFrame()) {
                        return false;
                    }
                    if (System.nanoTime() > receiver.stopDeadline()) {
                        throw new FormatException(peer, in.endOfLastFrame() + in.partialBytes(), FormatProblem.TRUNCATED,
                                "receiver stopped while the frame at offset " + in.endOfLastFrame() + " was incomplete ("
                                        + in.partialBytes() + " bytes received)");
                    }
                }
            }
        }
    }

    private void finish() throws IOException {
        StreamSink s = sink;
        if (s != null && !aborted) {
            s.close();
        }
    }

    private void finishQuietly() {
        try {
            finish();
        } catch (IOException ignored) {
            // the connection already failed; the file keeps its whole frames
        }
    }
}
