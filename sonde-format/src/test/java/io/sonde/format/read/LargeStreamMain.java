package io.sonde.format.read;

import io.sonde.format.testing.RecordBytes;
import io.sonde.format.testing.StreamBytes;
import java.io.IOException;
import java.io.InputStream;
import java.util.UUID;

/**
 * Child JVM for {@link LargeStreamTest}: reads a generated stream of the given size (never held in
 * memory: the same 256 KiB DATA frame is served again and again) and prints
 * "records N frames F end KIND".
 */
public final class LargeStreamMain {
    private LargeStreamMain() {}

    /** Records per generated DATA frame. */
    static final int RECORDS_PER_FRAME = 2 * 10_000;

    public static void main(String[] args) throws IOException {
        long dataFrames = Long.parseLong(args[0]);
        StreamBytes s = new StreamBytes(new UUID(1, 2), "big", 3);
        byte[] head = s.data(0, 0, 0, 0L, new RecordBytes().probeDef(1, "p", "()V")).toBytes();
        RecordBytes r = new RecordBytes();
        for (int i = 0; i < RECORDS_PER_FRAME / 2; i++) {
            r.enter(1, i).exit(1, i + 1);
        }
        byte[] frame = s.dataFrame(1, 0, 0, 9L, r);
        byte[] tail = new StreamBytes(new UUID(1, 2), "big", 3).trailer(2, 0, 0, 0, 0).toBytes();
        InputStream in = new InputStream() {
            long frameIndex = -1; // -1: head, dataFrames: tail
            byte[] current = head;
            int pos;

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                while (pos == current.length) {
                    frameIndex++;
                    if (frameIndex < dataFrames) {
                        current = frame;
                        pos = 0;
                    } else if (frameIndex == dataFrames) {
                        current = tail;
                        pos = 12; // the tail's own stream header is not part of this stream
                    } else {
                        return -1;
                    }
                }
                int n = Math.min(len, current.length - pos);
                System.arraycopy(current, pos, b, off, n);
                pos += n;
                return n;
            }
        };
        try (SondeReader reader = SondeReader.of(in, "generated")) {
            long records = 0;
            long sum = 0;
            while (reader.next()) {
                records++;
                sum += reader.time();
            }
            System.out.println("records " + records + " frames " + reader.framesRead() + " end " + reader.end().kind() + " bytes "
                    + (12 + head.length - 12 + dataFrames * frame.length + tail.length - 12) + " checksum " + sum);
        }
    }
}
