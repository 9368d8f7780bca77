package io.sonde.core.writer;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * The frames a TCP writer sent but the collector has not acknowledged yet, oldest first, within a
 * byte budget: one byte ring holding the frames back to back (a frame may wrap at the end) and a
 * ring of (sequence number, start, length) entries. Used by the writer thread only. Copying each
 * frame once into the ring is the price of being able to send it again.
 */
final class ResendBuffer {
    private final int budget;
    private byte[] ring;
    /** Absolute byte positions: the oldest frame starts at head, the next one goes at tail. */
    private long head;
    private long tail;
    private long[] sequences = new long[256];
    private long[] starts = new long[256];
    private int[] lengths = new int[256];
    /** Index of the oldest entry and number of entries in the entry rings. */
    private int first;
    private int count;

    ResendBuffer(int capacityBytes) {
        budget = capacityBytes;
        ring = new byte[capacityBytes];
    }

    /** True if a frame of this length can be added now. An empty buffer takes any frame (growing for a huge one). */
    boolean fits(int length) {
        return count == 0 || tail - head + length <= ring.length;
    }

    /** Copies the sealed frame in {@code [0, limit())} of {@code frame} (position and limit unchanged). */
    void add(long sequence, ByteBuffer frame) {
        int length = frame.limit();
        if (!fits(length)) throw new IllegalStateException("no room for a frame of " + length + " bytes");
        if (count == 0) {
            head = tail = 0;
            if (length > ring.length) {
                ring = new byte[length]; // one frame larger than the budget: kept alone
            } else if (ring.length > budget && length <= budget) {
                ring = new byte[budget]; // back to the budget after a huge frame
            }
        }
        int at = (int) (tail % ring.length);
        int firstPart = Math.min(length, ring.length - at);
        frame.get(0, ring, at, firstPart);
        if (firstPart < length) frame.get(firstPart, ring, 0, length - firstPart);
        if (count == sequences.length) growEntries();
        int e = (first + count) % sequences.length;
        sequences[e] = sequence;
        starts[e] = tail;
        lengths[e] = length;
        count++;
        tail += length;
    }

    private void growEntries() {
        int n = sequences.length;
        long[] s = new long[n * 2];
        long[] st = new long[n * 2];
        int[] l = new int[n * 2];
        for (int i = 0; i < count; i++) {
            int e = (first + i) % n;
            s[i] = sequences[e];
            st[i] = starts[e];
            l[i] = lengths[e];
        }
        sequences = s;
        starts = st;
        lengths = l;
        first = 0;
    }

    /** Frees every frame numbered up to {@code sequence}; returns how many. */
    int releaseUpTo(long sequence) {
        int freed = 0;
        while (count > 0 && sequences[first] <= sequence) {
            head = starts[first] + lengths[first];
            first = (first + 1) % sequences.length;
            count--;
            freed++;
        }
        return freed;
    }

    /** Sequence number of the oldest frame, or -1 if empty. */
    long firstSequence() {
        return count == 0 ? -1 : sequences[first];
    }

    int frames() {
        return count;
    }

    long bytes() {
        return tail - head;
    }

    int capacity() {
        return ring.length;
    }

    /** Writes every frame, oldest first. */
    void sendAll(OutputStream out) throws IOException {
        for (int i = 0; i < count; i++) {
            send((first + i) % sequences.length, out);
        }
    }

    /** Writes the newest frame. */
    void sendNewest(OutputStream out) throws IOException {
        send((first + count - 1) % sequences.length, out);
    }

    private void send(int e, OutputStream out) throws IOException {
        int at = (int) (starts[e] % ring.length);
        int length = lengths[e];
        int firstPart = Math.min(length, ring.length - at);
        out.write(ring, at, firstPart);
        if (firstPart < length) out.write(ring, 0, length - firstPart);
    }
}
