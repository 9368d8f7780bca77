package io.sonde.bench.overhead.sink;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP receiver on 127.0.0.1 for a framework's TCP writer: accepts connections and hands each
 * connection's byte stream to a {@link StreamConsumer} on a thread of its own (which decodes and
 * counts). Failures are kept and reported by {@link #problems()}, never thrown into the writer.
 */
public final class TcpRecordSink implements AutoCloseable {

    /** Decodes one connection's stream until its end. */
    @FunctionalInterface
    public interface StreamConsumer {
        /** Reads {@code in} to its end; {@code peer} names the connection in messages. */
        void consume(InputStream in, String peer) throws IOException;
    }

    private final ServerSocket server;
    private final Thread acceptor;
    private final List<Thread> readers = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final AtomicLong connections = new AtomicLong();
    private volatile boolean closing;

    /** Starts listening on an ephemeral port of 127.0.0.1. */
    public TcpRecordSink(StreamConsumer consumer) throws IOException {
        server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        acceptor = new Thread(() -> acceptLoop(consumer), "overhead-tcp-sink");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The port the sink listens on. */
    public int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far. */
    public long connections() {
        return connections.get();
    }

    private void acceptLoop(StreamConsumer consumer) {
        while (!closing) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                if (!closing) {
                    record("accept failed: " + e.getMessage());
                }
                return;
            }
            String peer = "connection from " + socket.getRemoteSocketAddress();
            Thread reader = new Thread(() -> {
                try (Socket s = socket; InputStream in = new BufferedInputStream(s.getInputStream(), 1 << 16)) {
                    consumer.consume(in, peer);
                } catch (IOException e) {
                    record(e.getMessage());
                }
            }, "overhead-tcp-reader");
            reader.setDaemon(true);
            synchronized (readers) {
                readers.add(reader);
            }
            connections.incrementAndGet(); // after the reader is listed: awaitDrained relies on it
            reader.start();
        }
    }

    private void record(String problem) {
        synchronized (problems) {
            problems.add(problem);
        }
    }

    /**
     * Waits up to {@code millis} until at least {@code connections} connections were accepted and
     * every accepted connection was read to its end (the writer closes its socket when its JVM
     * exits). The count matters: a connection the writer made and closed can still sit in the
     * accept backlog when this is called, and it must not be missed.
     *
     * @return true when that many connections arrived and all their readers finished
     */
    public boolean awaitDrained(long millis, long connections) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (this.connections.get() < connections) {
            if (System.currentTimeMillis() >= deadline) {
                return false;
            }
            Thread.sleep(5);
        }
        List<Thread> copy;
        synchronized (readers) {
            copy = new ArrayList<>(readers);
        }
        for (Thread t : copy) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                return false;
            }
            t.join(left);
            if (t.isAlive()) {
                return false;
            }
        }
        return true;
    }

    /** Problems seen so far (decode errors, failed accepts). */
    public List<String> problems() {
        synchronized (problems) {
            return List.copyOf(problems);
        }
    }

    @Override
    public void close() throws IOException {
        closing = true;
        server.close();
    }
}
