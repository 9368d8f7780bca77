package io.sonde.stress;

import io.sonde.core.buffer.RingHost;
import io.sonde.core.buffer.ThreadBuffer;
import java.util.Arrays;

/** Rings for the stress tests: a host that never blocks, and the bytes a known record sequence leaves. */
final class Rings {
    private Rings() {}

    static final int CAPACITY = 256;
    static final int PROBE = 7;
    static final long ENTER_TIME = 0x1122_3344_5566_7788L;
    static final long EXIT_TIME = 0x0102_0304_0506_0708L;
    /** Published position after {@link #produce}'s first record (TRACE_START 21 + ENTER 13 bytes). */
    static final int AFTER_ENTER = 34;
    /** Published position after its second record (EXIT 13 bytes). */
    static final int AFTER_EXIT = 47;

    /** Never closed, never woken: the tests look at publication only. */
    static final RingHost HOST = new RingHost() {
        @Override
        public void wakeWriter() {}

        @Override
        public boolean isClosed() {
            return false;
        }

        @Override
        public int nextOrdinal() {
            return 2;
        }
    };

    /** The ring bytes {@link #produce} leaves, computed single-threaded. */
    private static final byte[] EXPECTED;

    static {
        ThreadBuffer b = ring(null);
        produce(b);
        EXPECTED = b.ring().clone();
    }

    static ThreadBuffer ring(Thread owner) {
        return new ThreadBuffer(CAPACITY, true, HOST, owner, 1L, 1);
    }

    /** The producer's records: a root ENTER (with its TRACE_START), then its EXIT; each published. */
    static void produce(ThreadBuffer b) {
        b.enter(PROBE, ENTER_TIME);
        b.exit(PROBE, EXIT_TIME);
    }

    /** Whether the ring's bytes below {@code published} are exactly the records produced there. */
    static boolean complete(ThreadBuffer b, long published) {
        int n = (int) published;
        return Arrays.equals(b.ring(), 0, n, EXPECTED, 0, n);
    }
}
