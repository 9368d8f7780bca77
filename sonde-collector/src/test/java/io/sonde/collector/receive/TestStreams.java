package io.sonde.collector.receive;

import io.sonde.format.testing.RecordBytes;
import io.sonde.format.testing.StreamBytes;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/** Seeded random valid streams for the receiver tests, built with the test-side encoder. */
final class TestStreams {
    private TestStreams() {}

    /** A stream: header, registry frame, frames of random enter/exit/event records, and trailer. */
    static Built build(UUID agent, long seed, int dataFrames, boolean trailer) {
        return build(agent, seed, dataFrames, trailer, 0);
    }

    /**
     * Like {@link #build(UUID, long, int, boolean)} with frame sequence numbers from
     * {@code firstSequence}: a reconnecting agent continues its numbering (0 would mean the agent
     * restarted, a new run of the agent id).
     */
    static Built build(UUID agent, long seed, int dataFrames, boolean trailer, long firstSequence) {
        Random rnd = new Random(seed);
        StreamBytes s = new StreamBytes(agent, "host-" + (seed % 100), 1000 + (int) (seed % 1000));
        List<Integer> frameStarts = new ArrayList<>();
        ByteArrayOutputStream frames = new ByteArrayOutputStream();
        long seq = firstSequence;
        long t = 1_000_000;
        RecordBytes defs = new RecordBytes().probeDef(1, "a.B.c", "()V").probeDef(2, "a.B.d", "(J)I").stringDef(1, "x.Y")
                .eventDef(1, "ev", 3, "n").threadDef(11, "w-11").threadDef(12, "w-12");
        add(frames, frameStarts, s.dataFrame(seq++, t, t, 0L, defs));
        int records = 0;
        for (int f = 0; f < dataFrames; f++) {
            List<Object> blocks = new ArrayList<>();
            for (long thread = 11; thread <= 12; thread++) {
                RecordBytes r = new RecordBytes();
                int n = 1 + rnd.nextInt(40);
                for (int i = 0; i < n; i++) {
                    int probe = 1 + rnd.nextInt(2);
                    r.enter(probe, t += rnd.nextInt(1000));
                    switch (rnd.nextInt(3)) {
                        case 0:
                            r.exit(probe, t += rnd.nextInt(1000));
                            break;
                        case 1:
                            r.exitException(probe, t += rnd.nextInt(1000), 1);
                            break;
                        default:
                            r.event(1, t += 5, rnd.nextLong()).exit(probe, t += 7);
                            records++;
                    }
                    records += 2;
                }
                blocks.add(thread);
                blocks.add(r);
            }
            add(frames, frameStarts, s.dataFrame(seq++, t, t, blocks.toArray()));
        }
        if (trailer) {
            StreamBytes tail = new StreamBytes(agent, "host-" + (seed % 100), 1000 + (int) (seed % 1000));
            tail.trailer(seq, t, t, records, records);
            byte[] tb = tail.toBytes();
            byte[] only = java.util.Arrays.copyOfRange(tb, 12, tb.length);
            add(frames, frameStarts, only);
        }
        byte[] all = new StreamBytes(agent, "unused", 0).raw(frames.toByteArray()).toBytes();
        return new Built(all, frameStarts, records);
    }

    private static void add(ByteArrayOutputStream out, List<Integer> starts, byte[] frame) {
        starts.add(12 + out.size());
        out.writeBytes(frame);
    }

    /** Stream bytes and the offsets of its frames. */
    static final class Built {
        final byte[] bytes;
        final List<Integer> frameOffsets;
        final int dataRecords;

        Built(byte[] bytes, List<Integer> frameOffsets, int dataRecords) {
            this.bytes = bytes;
            this.frameOffsets = frameOffsets;
            this.dataRecords = dataRecords;
        }

        /** Offset just past frame i. */
        int endOfFrame(int i) {
            return i + 1 < frameOffsets.size() ? frameOffsets.get(i + 1) : bytes.length;
        }
    }
}
