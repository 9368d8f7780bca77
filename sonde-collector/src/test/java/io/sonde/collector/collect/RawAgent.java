package io.sonde.collector.collect;

import io.sonde.format.testing.RecordBytes;
import io.sonde.format.testing.StreamBytes;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * An agent written by hand with the test encoder, for several agents connected at once (only one
 * sonde-core monitor runs per JVM): calls nest and span frames, a probe is defined in the middle of
 * the stream, and the stream ends with a balanced trailer.
 */
final class RawAgent {
    final UUID agent = UUID.randomUUID();
    final List<byte[]> frames = new ArrayList<>();
    long records;

    RawAgent(long seed, int dataFrames) {
        Random rnd = new Random(seed);
        StreamBytes s = new StreamBytes(agent, "raw-host-" + seed, 7000 + (int) seed);
        long mono = 5_000_000_000L;
        long wallMinusMono = System.currentTimeMillis() * 1_000_000L - mono;
        long seq = 0;
        frames.add(s.dataFrame(seq++, mono + wallMinusMono, mono,
                0L, new RecordBytes().probeDef(1, "raw.Api.get", "()V").probeDef(2, "raw.Db.find", "()V").stringDef(1, "raw.Boom").threadDef(21, "raw-21")));
        List<Integer> open = new ArrayList<>();
        for (int f = 0; f < dataFrames; f++) {
            List<Object> blocks = new ArrayList<>();
            if (f == dataFrames / 2) {
                blocks.add(0L);
                blocks.add(new RecordBytes().probeDef(3, "raw.Cache.hit", "()Z")); // defined mid-stream, used from here on
            }
            RecordBytes r = new RecordBytes();
            int probes = f >= dataFrames / 2 ? 3 : 2;
            for (int i = 0; i < 30; i++) {
                mono += 1 + rnd.nextInt(5000);
                if (open.size() < 6 && (open.isEmpty() || rnd.nextBoolean())) {
                    int p = 1 + rnd.nextInt(probes);
                    open.add(p);
                    r.enter(p, mono);
                } else {
                    int p = open.remove(open.size() - 1);
                    if (rnd.nextInt(5) == 0) {
                        r.exitException(p, mono, 1);
                    } else {
                        r.exit(p, mono);
                    }
                }
                records++;
            }
            if (f == dataFrames - 1) {
                while (!open.isEmpty()) {
                    r.exit(open.remove(open.size() - 1), mono += 10);
                    records++;
                }
            }
            blocks.add(21L);
            blocks.add(r);
            frames.add(s.dataFrame(seq++, mono + wallMinusMono, mono, blocks.toArray()));
        }
        StreamBytes tail = new StreamBytes(agent, "raw-host-" + seed, 7000 + (int) seed);
        byte[] t = tail.trailer(seq, mono + wallMinusMono, mono, records, records).toBytes();
        frames.add(java.util.Arrays.copyOfRange(t, 12, t.length));
    }

    /** Sends the stream, a frame at a time with a short pause every few frames (so that agents overlap). */
    void send(int port) throws Exception {
        try (Socket sock = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream o = sock.getOutputStream();
            o.write(StreamBytes.streamHeader(1, 0));
            for (int i = 0; i < frames.size(); i++) {
                o.write(frames.get(i));
                if (i % 20 == 0) {
                    o.flush();
                    Thread.sleep(2);
                }
            }
            o.flush();
        }
    }
}
