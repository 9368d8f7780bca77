package io.sonde.analysis.input;

import io.sonde.format.Format;
import io.sonde.format.read.FormatException;
import io.sonde.format.read.FrameInput;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Finds the wall-clock span of a log file by hopping from frame header to frame header (reading
 * 56 bytes per frame and seeking over the payloads), without decoding or checking anything else:
 * warm-up and cool-down cuts need the log's end before the single decoding pass starts. At
 * anything that does not look like a frame (a damaged file) it reads the file once more frame by
 * frame, skipping damage the way the reader's recovery mode does (CRC-checked), so that the
 * frames after the damage count too; the decoding pass reports the problems.
 */
public final class FrameTimeScan {
    private FrameTimeScan() {}

    /** The span of the frame times in the file, or null if it holds no readable frame. */
    public static TimeRange scan(Path file) throws IOException {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            long pos = Format.STREAM_HEADER_BYTES;
            ByteBuffer h = ByteBuffer.allocate(Format.FRAME_OFF_MONO_NANOS + 8).order(ByteOrder.LITTLE_ENDIAN);
            while (pos + h.capacity() <= size) {
                h.clear();
                while (h.hasRemaining()) {
                    if (ch.read(h, pos + h.position()) < 0) break;
                }
                if (h.hasRemaining() || h.getInt(Format.FRAME_OFF_MAGIC) != Format.FRAME_MAGIC) break;
                long length = Integer.toUnsignedLong(h.getInt(Format.FRAME_OFF_LENGTH));
                if (length < Format.FRAME_FIXED_HEADER_BYTES || length > Format.MAX_FRAME_BYTES || pos + length > size) break;
                long wall = h.getLong(Format.FRAME_OFF_WALL_NANOS);
                min = Math.min(min, wall);
                max = Math.max(max, wall);
                pos += length;
            }
            if (pos < size) return scanPastDamage(file);
        }
        return min == Long.MAX_VALUE ? null : new TimeRange(min, max);
    }

    /** The span of the CRC-checked frames of a damaged file, reading it whole. */
    private static TimeRange scanPastDamage(Path file) throws IOException {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        try (FrameInput in = new FrameInput(new BufferedInputStream(Files.newInputStream(file), 1 << 16), file.toString())) {
            if (in.readStreamHeader()) {
                while (true) {
                    try {
                        if (!in.nextFrame()) break;
                    } catch (FormatException damaged) {
                        in.skipToNextFrame();
                        continue;
                    }
                    long wall = in.header().wallNanos();
                    min = Math.min(min, wall);
                    max = Math.max(max, wall);
                }
            }
        } catch (FormatException badStreamHeader) {
            // not a stream this reader reads: no span (the decoding pass reports it)
        }
        return min == Long.MAX_VALUE ? null : new TimeRange(min, max);
    }
}
