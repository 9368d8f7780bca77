package io.sonde.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import io.sonde.format.DropReason;
import io.sonde.format.Format;
import io.sonde.format.read.SondeReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The tcp writer against a real loopback server that stores each connection's bytes. */
@Timeout(60)
class TcpWriterTest {
    /** A minimal receiver: one byte array per connection; may cut connection 0 after some frames. */
    static final class Server implements AutoCloseable {
        final ServerSocket socket;
        final List<ByteArrayOutputStream> connections = new CopyOnWriteArrayList<>();
        final List<Thread> servers = new CopyOnWriteArrayList<>();
        final Thread acceptor;
        volatile int cutFirstAfterFrames = -1;
        /** Pause before reading each frame (a slow receiver). */
        volatile int readDelayMillis;

        Server() throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            acceptor = new Thread(this::acceptLoop, "test-receiver");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        /**
         * Waits until at least {@code n} connections were accepted and every accepted connection
         * was read to its end (the writer closed it), so the stored bytes are final.
         */
        void awaitServed(int n) throws InterruptedException {
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (connections.size() < n && System.nanoTime() < deadline) Thread.sleep(5);
            for (Thread t : servers) t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        }

        private void acceptLoop() {
            try {
                while (true) {
                    Socket s = socket.accept();
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    int index = connections.size();
                    Thread t = new Thread(() -> serve(s, out, index));
                    t.setDaemon(true);
                    servers.add(t);
                    connections.add(out); // after the thread is listed: awaitServed relies on it
                    t.start();
                }
            } catch (IOException closed) {
                // server closed
            }
        }

        private void serve(Socket s, ByteArrayOutputStream out, int index) {
            try (s; InputStream raw = s.getInputStream()) {
                DataInputStream in = new DataInputStream(raw);
                byte[] header = new byte[Format.STREAM_HEADER_BYTES];
                in.readFully(header);
                synchronized (out) {
                    out.write(header);
                }
                int frames = 0;
                while (true) {
                    if (readDelayMillis > 0) Thread.sleep(readDelayMillis);
                    byte[] head = new byte[8];
                    in.readFully(head);
                    int length = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).getInt(4);
                    byte[] rest = new byte[length - 8];
                    in.readFully(rest);
                    synchronized (out) {
                        out.write(head);
                        out.write(rest);
                    }
                    frames++;
                    if (index == 0 && frames == cutFirstAfterFrames) {
                        s.setSoLinger(true, 0); // reset: the agent sees a broken connection
                        return;
                    }
                }
            } catch (IOException endOfStream) {
                // connection closed by the agent
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        byte[] bytes(int connection) {
            ByteArrayOutputStream o = connections.get(connection);
            synchronized (o) {
                return o.toByteArray();
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    Server server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) server.close();
    }

    static List<Long> eventValues(byte[] stream, List<Long> sequences, boolean[] complete) throws IOException {
        List<Long> values = new ArrayList<>();
        try (SondeReader r = SondeReader.of(new ByteArrayInputStream(stream), "connection")) {
            long lastFrameOffset = -1;
            while (r.next()) {
                if (r.frame().offset() != lastFrameOffset) {
                    lastFrameOffset = r.frame().offset();
                    sequences.add(r.frame().sequence());
                }
                if (r.type() == Format.EVENT) values.add(r.fieldLong(0));
            }
            complete[0] = r.end().complete();
        } catch (io.sonde.format.read.FormatException e) {
            complete[0] = false;
        }
        return values;
    }

    @Test
    void streamsEverythingOverOneConnection() throws Exception {
        server = new Server();
        Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "tcp", "tcp.ack", "false", "tcp.port", String.valueOf(server.port()),
                "frame.bytes", "4096", "flush.interval.ms", "10")));
        try {
            EventType ev = m.eventType("n", EventField.longField("n"));
            for (long k = 0; k < 5000; k++) ev.begin().putLong(k).end();
        } finally {
            m.close();
        }
        server.awaitServed(1);
        assertThat(server.connections).hasSize(1);
        boolean[] complete = new boolean[1];
        List<Long> seq = new ArrayList<>();
        List<Long> values = eventValues(server.bytes(0), seq, complete);
        assertThat(complete[0]).isTrue();
        assertThat(values).hasSize(5000);
        for (int k = 0; k < values.size(); k++) assertThat(values.get(k)).isEqualTo(k);
        for (int k = 1; k < seq.size(); k++) assertThat(seq.get(k)).isEqualTo(seq.get(k - 1) + 1);
        assertThat(m.counters().written()).isEqualTo(5000);
    }

    @Test
    void reconnectsAfterABrokenConnectionAndStartsTheNewOneWithTheRegistry() throws Exception {
        server = new Server();
        server.cutFirstAfterFrames = 3;
        Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "tcp", "tcp.ack", "false", "tcp.port", String.valueOf(server.port()),
                "frame.bytes", "4096", "flush.interval.ms", "5")));
        long total = 20_000;
        try {
            EventType ev = m.eventType("n", EventField.longField("n"));
            for (long k = 0; k < total; k++) {
                ev.begin().putLong(k).end();
                if (k % 1000 == 0) Thread.sleep(5); // spread over many frames
            }
        } finally {
            m.close();
        }
        server.awaitServed(2);
        assertThat(server.connections.size()).isGreaterThanOrEqualTo(2);
        boolean[] complete = new boolean[1];
        List<Long> seq0 = new ArrayList<>();
        List<Long> first = eventValues(server.bytes(0), seq0, complete);
        List<Long> seqLast = new ArrayList<>();
        List<Long> last = eventValues(server.bytes(server.connections.size() - 1), seqLast, complete);
        assertThat(complete[0]).as("last connection ends with a trailer").isTrue();
        // the new connection is self-describing (its events decode, so the registry came first)
        assertThat(last).isNotEmpty();
        assertThat(last.get(last.size() - 1)).isEqualTo(total - 1);
        assertThat(seqLast.get(0)).isGreaterThan(seq0.get(seq0.size() - 1));
        // in order, no duplicates across connections
        List<Long> all = new ArrayList<>(first);
        for (int c = 1; c < server.connections.size(); c++) {
            all.addAll(eventValues(server.bytes(c), new ArrayList<>(), new boolean[1]));
        }
        for (int k = 1; k < all.size(); k++) assertThat(all.get(k)).isGreaterThan(all.get(k - 1));
    }

    /** A loopback port nothing listens on (bound, then closed again). */
    static int deadPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    @Test
    void aReceiverThatNeverComesUpCostsRecordsCountedAsWriterFailedNotAHang() throws Exception {
        int port = deadPort();
        Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "tcp", "tcp.ack", "false", "tcp.port", String.valueOf(port),
                "flush.interval.ms", "10", "shutdown.timeout.ms", "1500", "policy", "drop", "buffer.bytes", "4096")));
        try {
            EventType ev = m.eventType("n", EventField.longField("n"));
            for (long k = 0; k < 1000; k++) ev.begin().putLong(k).end();
            Thread.sleep(200);
        } finally {
            m.close();
        }
        Counters c = m.counters();
        assertThat(c.produced()).isEqualTo(1000);
        assertThat(c.written()).isZero();
        assertThat(c.dropped(DropReason.WRITER_FAILED)).isPositive();
        assertThat(c.produced()).isEqualTo(c.written() + c.dropped());
    }

    /**
     * Issue 17: with the default shutdown.timeout.ms (10 s), closing a monitor whose receiver is
     * not there must not wait for most of it. The disconnected writer makes one last attempt and
     * gives up; everything not written counts as dropped. (Before: close took about 8 s.)
     */
    @Test
    void closingWithNothingListeningMakesOneLastAttemptInsteadOfRetryingForTheShutdownTimeout() throws Exception {
        int port = deadPort();
        Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "tcp", "tcp.ack", "false", "tcp.port", String.valueOf(port),
                "flush.interval.ms", "10")));
        long closeNanos;
        try {
            EventType ev = m.eventType("n", EventField.longField("n"));
            for (long k = 0; k < 1000; k++) ev.begin().putLong(k).end();
            Thread.sleep(300); // the writer is in its reconnect back-off now
        } finally {
            long t0 = System.nanoTime();
            m.close();
            closeNanos = System.nanoTime() - t0;
        }
        assertThat(closeNanos).as("close() with the default shutdown.timeout.ms of 10 s").isLessThan(5_000_000_000L);
        Counters c = m.counters();
        assertThat(c.produced()).isEqualTo(1000);
        assertThat(c.written()).isZero();
        assertThat(c.dropped(DropReason.WRITER_FAILED)).isEqualTo(1000);
    }

    /**
     * The counterpart: a receiver that is slow but reading gets everything at close (the shutdown
     * timeout, not the one-last-attempt rule, bounds a writer that makes progress).
     */
    @Test
    void aSlowButLiveReceiverGetsEverythingAtClose() throws Exception {
        server = new Server();
        server.readDelayMillis = 20;
        Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "tcp", "tcp.ack", "false", "tcp.port", String.valueOf(server.port()),
                "frame.bytes", "4096", "buffer.bytes", "1048576", "policy", "drop")));
        long total = 20_000; // about 60 frames of 4 KiB: about 1.2 s at one frame per 20 ms
        try {
            EventType ev = m.eventType("n", EventField.longField("n"));
            for (long k = 0; k < total; k++) ev.begin().putLong(k).end();
        } finally {
            m.close();
        }
        server.awaitServed(1);
        boolean[] complete = new boolean[1];
        List<Long> values = eventValues(server.bytes(0), new ArrayList<>(), complete);
        assertThat(complete[0]).as("stream ends with its trailer").isTrue();
        assertThat(values).hasSize((int) total);
        assertThat(m.counters().written()).isEqualTo(total);
    }

    @Test
    void aReceiverThatStopsReadingDoesNotHangClose() throws Exception {
        List<Socket> held = new CopyOnWriteArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) held.add(silent.accept()); // accept, never read
                } catch (IOException closed) {
                    // test over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            Monitor m = MonitorAccess.start(SondeConfig.of(Map.of("writer", "tcp", "tcp.ack", "false", "tcp.port",
                    String.valueOf(silent.getLocalPort()), "policy", "drop", "shutdown.timeout.ms", "2000")));
            try {
                EventType ev = m.eventType("n", EventField.longField("n"), EventField.longField("m"));
                for (long k = 0; k < 3_000_000; k++) ev.begin().putLong(k).putLong(k).end();
            } finally {
                m.close(); // returns: the stuck write is interrupted after the timeout
            }
            Counters c = m.counters();
            assertThat(c.produced()).isEqualTo(3_000_000);
            assertThat(c.produced()).isEqualTo(c.written() + c.dropped());
            assertThat(c.dropped()).isPositive();
        } finally {
            for (Socket s : held) s.close();
        }
    }
}
