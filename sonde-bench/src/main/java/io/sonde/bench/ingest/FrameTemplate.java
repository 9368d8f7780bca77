package io.sonde.bench.ingest;

import io.sonde.format.Format;
import io.sonde.format.write.LogFileWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * The frames the senders replay, encoded once by the format's own file writer: a registry frame
 * and one full DATA frame (256 KiB) of root ENTER/EXIT pairs on 4 threads over 8 probes.
 * {@link #patch} gives each copy its agent id and sequence number and a fresh CRC.
 */
final class FrameTemplate {
    private final byte[] registry;
    private final byte[] data;
    private final int recordsPerFrame;

    private FrameTemplate(byte[] registry, byte[] data, int recordsPerFrame) {
        this.registry = registry;
        this.data = data;
        this.recordsPerFrame = recordsPerFrame;
    }

    static FrameTemplate build(Path dir) throws IOException {
        Files.createDirectories(dir);
        UUID agent = new UUID(1, 1);
        long mono = System.nanoTime();
        LogFileWriter w = new LogFileWriter(dir, agent, 1, "bench", System.currentTimeMillis() * 1_000_000L, mono);
        for (int p = 1; p <= 8; p++) {
            w.probe(p, "bench.Service.op" + p, "()V");
        }
        for (long t = 1; t <= 4; t++) {
            w.thread(t, "bench-" + t);
        }
        w.flushFrame();
        long time = mono;
        int records = 0;
        // fill one frame: each ENTER/EXIT pair is 26 bytes, plus block headers
        while (records * 13 < LogFileWriter.FRAME_TARGET_BYTES - 4096) {
            long thread = 1 + (records / 2) % 4;
            int probe = 1 + (records / 8) % 8;
            w.enter(thread, probe, time += 100);
            w.exit(thread, probe, time += 900);
            records += 2;
        }
        w.flushFrame();
        w.close(false);
        byte[] file = Files.readAllBytes(w.segmentFile(0));
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int first = 12;
        int firstLength = b.getInt(first + Format.FRAME_OFF_LENGTH);
        int second = first + firstLength;
        int secondLength = b.getInt(second + Format.FRAME_OFF_LENGTH);
        byte[] registry = java.util.Arrays.copyOfRange(file, first, first + firstLength);
        byte[] data = java.util.Arrays.copyOfRange(file, second, second + secondLength);
        if (data[Format.FRAME_OFF_TYPE] != Format.FRAME_DATA || second + secondLength > file.length) {
            throw new IOException("frame template: unexpected layout of " + w.segmentFile(0));
        }
        return new FrameTemplate(registry, data, countRecords(registry, data));
    }

    /** The data records of the DATA frame, counted by the format's reader (not assumed from what was written). */
    private static int countRecords(byte[] registry, byte[] data) throws IOException {
        io.sonde.format.read.RecordCursor c = new io.sonde.format.read.RecordCursor();
        c.startFrame(registry, registry.length, 0, "template");
        while (c.next()) {
            // definitions only: they go into the cursor's registry
        }
        c.startFrame(data, data.length, 0, "template");
        int n = 0;
        while (c.next()) {
            if (c.type() <= Format.EVENT) {
                n++;
            }
        }
        return n;
    }

    int frameBytes() {
        return data.length;
    }

    int recordsPerFrame() {
        return recordsPerFrame;
    }

    byte[] registryCopy() {
        return registry.clone();
    }

    byte[] dataCopy() {
        return data.clone();
    }

    /** Sets agent id and sequence number of a frame copy and recomputes its CRC. */
    static void patch(byte[] frame, UUID agent, long sequence, CRC32C crc) {
        ByteBuffer b = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(Format.FRAME_OFF_AGENT_MSB, agent.getMostSignificantBits());
        b.putLong(Format.FRAME_OFF_AGENT_LSB, agent.getLeastSignificantBits());
        b.putLong(Format.FRAME_OFF_SEQUENCE, sequence);
        crc.reset();
        crc.update(frame, Format.FRAME_OFF_TYPE, frame.length - Format.FRAME_OFF_TYPE);
        b.putInt(Format.FRAME_OFF_CRC, (int) crc.getValue());
    }
}
