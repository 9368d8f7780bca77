package io.sonde.collector.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.collector.archive.Archive;
import io.sonde.collector.receive.Receiver;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.collector.receive.StreamSummary;
import io.sonde.core.config.SondeConfig;
import io.sonde.format.Format;
import io.sonde.format.read.ReadEnd;
import io.sonde.format.read.RecordTypes;
import io.sonde.format.read.SondeReader;
import io.sonde.format.read.Trailer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The receiver is killed in the middle of a run and a new one takes its port: the core TCP writer
 * reconnects, the agent's folder gets a second segment, and the folder reads as one stream. Frames
 * that were in flight when the receiver died may be lost (the reader counts them by sequence
 * number); everything that arrived is in order per thread, and with no frame missing it is exact.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TcpReconnectTest {
    @TempDir
    Path out;

    @Test
    void killedReceiverIsReplacedAndTheAgentsFolderReadsAsOneStream() throws Exception {
        Receiver first = Receiver.start(0, new Archive(out), ReceiverListener.none());
        int port = first.port();
        Map<String, String> settings = new HashMap<>();
        settings.put("writer", "tcp");
        settings.put("tcp.host", "127.0.0.1");
        settings.put("tcp.port", String.valueOf(port));
        settings.put("flush.interval.ms", "5");
        settings.put("frame.bytes", "4096");
        settings.put("policy", "block-forever"); // producers wait while the receiver is away
        Map<Long, List<String>> expected = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch closed = new CountDownLatch(1);
        Receiver second = null;
        UUID agent;
        try {
            Monitor m = MonitorAccess.start(SondeConfig.of(settings));
            agent = m.agentId();
            MethodProbe outer = m.methodProbe("app.Job.run", "()V");
            MethodProbe inner = m.methodProbe("app.Job.step", "(I)V");
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                Thread w = new Thread(() -> {
                    List<String> mine = new ArrayList<>();
                    for (int i = 0; !stop.get() || i < 200; i++) {
                        boolean e = outer.enter();
                        mine.add("ENTER app.Job.run");
                        boolean e2 = inner.enter();
                        mine.add("ENTER app.Job.step");
                        inner.exit(e2);
                        mine.add("EXIT app.Job.step");
                        outer.exit(e);
                        mine.add("EXIT app.Job.run");
                        if (i % 20 == 0) {
                            try {
                                Thread.sleep(1);
                            } catch (InterruptedException ex) {
                                return;
                            }
                        }
                    }
                    expected.put(threadId(Thread.currentThread()), mine);
                }, "job-" + t);
                workers.add(w);
            }
            workers.forEach(Thread::start);
            Path firstSegment = out.resolve(agent.toString()).resolve("sonde-" + agent + "-000000.sonde");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((!Files.exists(firstSegment) || Files.size(firstSegment) < 50_000) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            first.abort(); // killed mid-stream
            second = Receiver.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), new Archive(out), new ReceiverListener() {
                @Override
                public void closed(String peer, StreamSummary stream) {
                    closed.countDown();
                }
            });
            Path secondSegment = out.resolve(agent.toString()).resolve("sonde-" + agent + "-000001.sonde");
            while ((!Files.exists(secondSegment) || Files.size(secondSegment) < 50_000) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            stop.set(true);
            for (Thread w : workers) {
                w.join(60_000);
            }
            m.close();
            assertThat(closed.await(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            first.abort();
            if (second != null) {
                second.stop();
            }
        }

        Map<Long, List<String>> actual = new HashMap<>();
        long missing;
        Trailer trailer;
        try (SondeReader r = SondeReader.open(out.resolve(agent.toString()))) {
            while (r.next()) {
                if (Format.isDataRecord(r.type())) {
                    actual.computeIfAbsent(r.threadId(), k -> new ArrayList<>()).add(RecordTypes.name(r.type()) + " " + r.probeName());
                }
            }
            assertThat(r.end().kind()).as(r.end().toString()).isEqualTo(ReadEnd.Kind.COMPLETE);
            assertThat(r.source()).endsWith("-000001.sonde");
            missing = r.missingFrames();
            trailer = r.trailer();
        }
        assertThat(trailer.balanced()).isTrue();
        System.out.println("TcpReconnectTest: " + missing + " frames lost in flight when the receiver was killed; trailer " + trailer);
        long read = actual.values().stream().mapToLong(List::size).sum();
        assertThat(read).isLessThanOrEqualTo(trailer.written());
        for (Map.Entry<Long, List<String>> e : expected.entrySet()) {
            List<String> got = actual.getOrDefault(e.getKey(), List.of());
            assertThat(isSubsequence(got, e.getValue())).as("records of thread " + e.getKey() + " are in production order").isTrue();
            if (missing == 0) {
                assertThat(got).isEqualTo(e.getValue());
            }
        }
        if (missing == 0) {
            assertThat(read).isEqualTo(trailer.written());
        }
    }

    private static boolean isSubsequence(List<String> part, List<String> whole) {
        int j = 0;
        for (String s : part) {
            while (j < whole.size() && !whole.get(j).equals(s)) {
                j++;
            }
            if (j == whole.size()) {
                return false;
            }
            j++;
        }
        return true;
    }

    @SuppressWarnings("deprecation") // Thread.threadId() needs Java 19; the format carries getId()
    private static long threadId(Thread t) {
        return t.getId();
    }
}
