package io.sonde.core.buffer;

/** Test access to package-private hooks of the buffer package. */
public final class BufferTestAccess {
    private BufferTestAccess() {}

    public static void dropAsFull(ThreadBuffer b, int n) {
        b.dropAsFull(n);
    }
}
