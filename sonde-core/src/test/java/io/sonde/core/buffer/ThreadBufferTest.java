package io.sonde.core.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.DropReason;
import io.sonde.format.Format;
import io.sonde.format.RecordLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60) // a ring bug shows as a blocked producer: fail instead of hanging the build
class ThreadBufferTest {
    /** A host that counts wake-ups and can be closed. */
    static final class Host implements RingHost {
        final AtomicInteger wakes = new AtomicInteger();
        final AtomicBoolean closed = new AtomicBoolean();
        int ordinals = 100;

        @Override
        public void wakeWriter() {
            wakes.incrementAndGet();
        }

        @Override
        public boolean isClosed() {
            return closed.get();
        }

        @Override
        public synchronized int nextOrdinal() {
            return ++ordinals;
        }
    }

    /** Consumes published records like the writer thread: skips pads, sizes records by type. */
    static List<byte[]> drain(ThreadBuffer b, int eventBytes) {
        List<byte[]> out = new ArrayList<>();
        long r = b.readPosition();
        long w = b.writePosition();
        byte[] ring = b.ring();
        int cap = b.capacity();
        while (r < w) {
            int i = (int) r & (cap - 1);
            byte t = ring[i];
            if (t == ThreadBuffer.PAD) {
                r += cap - i;
                continue;
            }
            int n = t == Format.EVENT ? eventBytes : Format.fixedRecordBytes(t);
            assertThat(n).as("size of type %d", t).isPositive();
            assertThat(i + n).as("record inside the ring").isLessThanOrEqualTo(cap);
            out.add(Arrays.copyOfRange(ring, i, i + n));
            r += n;
        }
        b.releaseTo(r);
        return out;
    }

    static ByteBuffer le(byte[] rec) {
        return ByteBuffer.wrap(rec).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void encodesEveryRecordTypeAtTheSpecOffsets() {
        Host host = new Host();
        ThreadBuffer b = new ThreadBuffer(1024, false, host, Thread.currentThread(), 42, 3);
        b.setParent(0x77L, 5);
        b.enter(9, 1000L);
        b.enterCpu(10, 2000L, 333L);
        b.exitExceptionCpu(10, 3000L, 444L, 12);
        b.exitException(9, 4000L, 13);
        b.enterCpu(11, 5000L, 555L); // a new trace: no parent any more
        b.exitCpu(11, 6000L, 666L);
        b.enter(12, 7000L);
        b.exit(12, 8000L);
        List<byte[]> recs = drain(b, 0);
        assertThat(recs).hasSize(11);

        ByteBuffer ts = le(recs.get(0));
        assertThat(ts.get(0)).isEqualTo(Format.TRACE_START);
        assertThat(ts.getLong(1)).isEqualTo(3L << 32 | 1);
        assertThat(ts.getLong(9)).isEqualTo(0x77L);
        assertThat(ts.getInt(17)).isEqualTo(5);
        assertThat(recs.get(0)).hasSize(21);

        ByteBuffer en = le(recs.get(1));
        assertThat(recs.get(1)).hasSize(13);
        assertThat(en.get(0)).isEqualTo(Format.ENTER);
        assertThat(en.getInt(1)).isEqualTo(9);
        assertThat(en.getLong(5)).isEqualTo(1000L);

        ByteBuffer ec = le(recs.get(2));
        assertThat(recs.get(2)).hasSize(21);
        assertThat(ec.get(0)).isEqualTo(Format.ENTER_CPU);
        assertThat(ec.getInt(1)).isEqualTo(10);
        assertThat(ec.getLong(5)).isEqualTo(2000L);
        assertThat(ec.getLong(13)).isEqualTo(333L);

        ByteBuffer xec = le(recs.get(3));
        assertThat(recs.get(3)).hasSize(25);
        assertThat(xec.get(0)).isEqualTo(Format.EXIT_EXCEPTION_CPU);
        assertThat(xec.getInt(1)).isEqualTo(10);
        assertThat(xec.getLong(5)).isEqualTo(3000L);
        assertThat(xec.getLong(13)).isEqualTo(444L);
        assertThat(xec.getInt(21)).isEqualTo(12);

        ByteBuffer xe = le(recs.get(4));
        assertThat(recs.get(4)).hasSize(17);
        assertThat(xe.get(0)).isEqualTo(Format.EXIT_EXCEPTION);
        assertThat(xe.getInt(1)).isEqualTo(9);
        assertThat(xe.getLong(5)).isEqualTo(4000L);
        assertThat(xe.getInt(13)).isEqualTo(13);

        ByteBuffer ts2 = le(recs.get(5));
        assertThat(ts2.getLong(1)).isEqualTo(3L << 32 | 2);
        assertThat(ts2.getLong(9)).isZero();
        assertThat(ts2.getInt(17)).isEqualTo(-1);

        ByteBuffer xc = le(recs.get(7));
        assertThat(recs.get(7)).hasSize(21);
        assertThat(xc.get(0)).isEqualTo(Format.EXIT_CPU);
        assertThat(xc.getLong(13)).isEqualTo(666L);

        ByteBuffer x = le(recs.get(10));
        assertThat(x.get(0)).isEqualTo(Format.EXIT);
        assertThat(x.getInt(1)).isEqualTo(12);
        assertThat(x.getLong(5)).isEqualTo(8000L);
        assertThat(b.produced()).isEqualTo(8);
    }

    @Test
    void traceContextFollowsTheCallTree() {
        ThreadBuffer b = new ThreadBuffer(1024, false, new Host(), Thread.currentThread(), 1, 1);
        assertThat(b.traceId()).isZero();
        assertThat(b.orderIndex()).isEqualTo(-1);
        b.enter(1, 1); // order 0
        long trace = b.traceId();
        assertThat(trace).isEqualTo(1L << 32 | 1);
        b.enter(2, 2); // order 1, depth 2
        b.exit(2, 3);
        b.enter(3, 4); // order 2
        assertThat(b.orderIndex()).isEqualTo(2);
        assertThat(b.depth()).isEqualTo(2);
        b.exit(3, 5);
        assertThat(b.orderIndex()).isZero();
        b.exit(1, 6);
        assertThat(b.depth()).isZero();
        assertThat(b.traceId()).isZero();
        b.enter(1, 7);
        assertThat(b.traceId()).isEqualTo(1L << 32 | 2);
    }

    @Test
    void aHandOffTimeMakesTheFirstTraceOfTheWorkAHandoffStartAndOnlyThatOne() {
        Host host = new Host();
        ThreadBuffer b = new ThreadBuffer(1024, false, host, Thread.currentThread(), 42, 3);
        b.setParent(0x77L, 5, 900L, true); // a task's traces, handed over at 900
        b.enterCpu(9, 1000L, 1L);
        b.exit(9, 1100L);
        b.enter(9, 1200L); // a second top-level call of the same task
        b.exit(9, 1300L);
        b.setParent(0L, -1);
        b.enter(9, 1400L);
        List<byte[]> r = drain(b, 0);
        assertThat(r).extracting(rec -> rec[0]).containsExactly(Format.HANDOFF_START, Format.ENTER_CPU, Format.EXIT,
                Format.TRACE_START, Format.ENTER, Format.EXIT, Format.TRACE_START, Format.ENTER);
        ByteBuffer h = le(r.get(0));
        assertThat(r.get(0)).hasSize(RecordLayout.HandoffStart.LENGTH);
        assertThat(h.getLong(RecordLayout.HandoffStart.TRACE_ID)).isEqualTo((3L << 32) | 1);
        assertThat(h.getLong(RecordLayout.HandoffStart.PARENT_TRACE_ID)).isEqualTo(0x77L);
        assertThat(h.getInt(RecordLayout.HandoffStart.PARENT_ORDER_INDEX)).isEqualTo(5);
        assertThat(h.getLong(RecordLayout.HandoffStart.HANDOFF_TIME)).isEqualTo(900L);
        assertThat(le(r.get(1)).getLong(RecordLayout.Timed.TIME)).isEqualTo(1000L);
        ByteBuffer second = le(r.get(3));
        assertThat(second.getLong(RecordLayout.TraceStart.PARENT_TRACE_ID)).isEqualTo(0x77L);
        assertThat(second.getInt(RecordLayout.TraceStart.PARENT_ORDER_INDEX)).isEqualTo(5);
        assertThat(le(r.get(6)).getLong(RecordLayout.TraceStart.PARENT_TRACE_ID)).isZero();
        assertThat(b.pendingHandoffTime()).isEqualTo(ThreadBuffer.NO_HANDOFF_TIME);
    }

    @Test
    void wrapsWithAPadByteAndNeverSplitsARecord() {
        Host host = new Host();
        ThreadBuffer b = new ThreadBuffer(64, false, host, Thread.currentThread(), 1, 1);
        // 34 bytes (TRACE_START + ENTER), then 13 (EXIT) = 47; drain; the next root enter needs 34:
        // 47 + 34 > 64, so a pad byte goes at 47 and the records start at 0
        b.enter(1, 10);
        b.exit(1, 11);
        assertThat(drain(b, 0)).hasSize(3);
        b.enter(1, 12);
        assertThat(b.ring()[47]).isEqualTo(ThreadBuffer.PAD);
        assertThat(b.ring()[0]).isEqualTo(Format.TRACE_START);
        assertThat(b.ring()[21]).isEqualTo(Format.ENTER);
        assertThat(b.writePosition()).isEqualTo(64 + 34);
        List<byte[]> recs = drain(b, 0);
        assertThat(recs).hasSize(2);
        assertThat(le(recs.get(1)).getLong(5)).isEqualTo(12);
        // many more laps keep order and content
        long t = 100;
        for (int lap = 0; lap < 50; lap++) {
            b.enter(2, t);
            b.exit(2, t + 1);
            assertThat(drain(b, 0)).extracting(rec -> rec[0]).containsExactly(Format.ENTER, Format.EXIT);
            b.exit(1, t + 2); // depth goes 1 -> 2 -> 1 -> 0, then a new trace
            assertThat(drain(b, 0)).extracting(rec -> rec[0]).containsExactly(Format.EXIT);
            // (without this drain a 34-byte record plus its pad may not fit next to 13 used bytes)
            b.enter(1, t + 3);
            List<byte[]> r = drain(b, 0);
            assertThat(r).extracting(rec -> rec[0]).containsExactly(Format.TRACE_START, Format.ENTER);
            assertThat(le(r.get(1)).getLong(5)).isEqualTo(t + 3);
            t += 10;
        }
    }

    @Test
    void dropPolicyCountsAndWritesAGapBeforeTheNextRecordThatFits() {
        Host host = new Host();
        ThreadBuffer b = new ThreadBuffer(64, true, host, Thread.currentThread(), 1, 1);
        b.enter(1, 1); // 34
        b.enter(2, 2); // 47
        b.enter(3, 3); // 60
        b.exit(3, 4); // 13 more: does not fit -> dropped
        b.exit(2, 5); // dropped
        assertThat(b.dropped(DropReason.BUFFER_FULL)).isEqualTo(2);
        assertThat(b.produced()).isEqualTo(5);
        assertThat(host.wakes.get()).isPositive();
        assertThat(drain(b, 0)).hasSize(4);
        b.exit(1, 6);
        List<byte[]> r = drain(b, 0);
        assertThat(r).hasSize(2);
        assertThat(r.get(0)[0]).isEqualTo(Format.GAP);
        assertThat(le(r.get(0)).getInt(1)).isEqualTo(2);
        assertThat(r.get(1)[0]).isEqualTo(Format.EXIT);
        // no further GAP once written
        b.enter(1, 7);
        assertThat(drain(b, 0)).extracting(rec -> rec[0]).containsExactly(Format.TRACE_START, Format.ENTER);
    }

    @Test
    void blockPolicyWaitsForTheConsumer() throws Exception {
        Host host = new Host();
        ThreadBuffer b = new ThreadBuffer(64, false, host, Thread.currentThread(), 1, 1);
        List<byte[]> consumed = new ArrayList<>();
        AtomicBoolean done = new AtomicBoolean();
        Thread consumer = new Thread(() -> {
            while (!done.get() || b.readPosition() != b.writePosition()) {
                synchronized (consumed) {
                    consumed.addAll(drain(b, 0));
                }
                Thread.onSpinWait();
            }
        });
        Thread producer = new Thread(() -> {
            for (int k = 0; k < 2000; k++) {
                b.enter(1, k);
                b.exit(1, k);
            }
            done.set(true);
        });
        // the ring belongs to the producer thread: build it there
        consumer.start();
        producer.start();
        producer.join(30_000);
        consumer.join(30_000);
        assertThat(producer.isAlive()).isFalse();
        assertThat(b.dropped(DropReason.BUFFER_FULL)).isZero();
        assertThat(consumed).hasSize(6000); // TRACE_START, ENTER, EXIT per iteration
        for (int k = 0; k < 2000; k++) {
            assertThat(le(consumed.get(3 * k + 1)).getLong(5)).isEqualTo(k);
        }
    }

    @Test
    void boundedBlockWaitsOnceThenDropsUntilTheRingHasRoomAgain() {
        Host host = new Host();
        long limit = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(20);
        ThreadBuffer b = new ThreadBuffer(64, false, limit, host, Thread.currentThread(), 1, 1);
        b.enter(1, 1); // 34
        b.enter(2, 2); // 47
        b.enter(3, 3); // 60: full for a 13-byte EXIT, and nobody drains
        long t0 = System.nanoTime();
        b.exit(3, 4); // waits for the limit, then drops
        long waited = System.nanoTime() - t0;
        assertThat(waited).isGreaterThanOrEqualTo(limit);
        assertThat(b.dropped(DropReason.BUFFER_FULL)).isEqualTo(1);
        long t1 = System.nanoTime();
        for (int k = 0; k < 1000; k++) b.exit(2, 5); // still full: dropped at once, no waiting again
        assertThat(System.nanoTime() - t1).isLessThan(limit * 5); // 1000 waits would take 20 s
        assertThat(b.dropped(DropReason.BUFFER_FULL)).isEqualTo(1001);
        assertThat(drain(b, 0)).hasSize(4); // the writer makes room
        b.exit(1, 6); // fits: a GAP with the count first, and the next full ring waits again
        List<byte[]> r = drain(b, 0);
        assertThat(r).extracting(rec -> rec[0]).containsExactly(Format.GAP, Format.EXIT);
        assertThat(le(r.get(0)).getInt(1)).isEqualTo(1001);
        b.enter(1, 7); // 34 bytes
        b.enter(2, 8); // 13 + 12 bytes of padding at the ring's end
        long t2 = System.nanoTime();
        b.enter(3, 9); // does not fit: waits the full limit again
        assertThat(System.nanoTime() - t2).isGreaterThanOrEqualTo(limit);
        assertThat(b.dropped(DropReason.BUFFER_FULL)).isEqualTo(1002);
    }

    @Test
    void closedHostMakesAFullRingDropWithReasonClosed() {
        Host host = new Host();
        ThreadBuffer b = new ThreadBuffer(64, false, host, Thread.currentThread(), 1, 1);
        b.enter(1, 1);
        b.enter(2, 2);
        b.enter(3, 3);
        host.closed.set(true);
        b.exit(3, 4); // would block; closed -> dropped
        assertThat(b.dropped(DropReason.CLOSED)).isEqualTo(1);
        assertThat(b.dropped(DropReason.BUFFER_FULL)).isZero();
    }

    @Test
    void wakesTheWriterOncePerHalfFullCrossing() {
        Host host = new Host();
        ThreadBuffer b = new ThreadBuffer(1024, false, host, Thread.currentThread(), 1, 1);
        for (int k = 0; k < 38; k++) b.exit(1, k); // 494 bytes: below half
        assertThat(host.wakes.get()).isZero();
        for (int k = 0; k < 20; k++) b.exit(1, k); // crosses 512 once
        assertThat(host.wakes.get()).isEqualTo(1);
        drain(b, 0);
        for (int k = 0; k < 40; k++) b.exit(1, k); // crosses again after the drain
        assertThat(host.wakes.get()).isEqualTo(2);
    }

    @Test
    void placeholderDropsWithReasonNoBufferButKeepsTraceContext() {
        ThreadBuffer b = new ThreadBuffer(0, false, new Host(), Thread.currentThread(), 1, 1);
        b.enter(1, 1);
        assertThat(b.traceId()).isEqualTo(1L << 32 | 1);
        b.exit(1, 2);
        assertThat(b.dropped(DropReason.NO_BUFFER)).isEqualTo(2);
        assertThat(b.produced()).isEqualTo(2);
    }

    @Test
    void eventsAreWrittenFieldByFieldAndMissingFieldsAreZero() {
        ThreadBuffer b = new ThreadBuffer(256, false, new Host(), Thread.currentThread(), 1, 1);
        byte[] types = {Format.FIELD_INT, Format.FIELD_DOUBLE, Format.FIELD_BOOLEAN};
        int bytes = 13 + 4 + 8 + 1;
        b.events().begin(7, types, bytes, 99L).putInt(-5).putDouble(1.5).putBoolean(true).end();
        b.events().begin(7, types, bytes, 100L).putInt(6).putDouble(3.0).putBoolean(true).end();
        b.events().begin(7, types, bytes, 101L).putInt(6).end(); // staged bytes of the last one are stale
        List<byte[]> r = drain(b, bytes);
        assertThat(r).hasSize(3);
        r.remove(1);
        ByteBuffer e = le(r.get(0));
        assertThat(e.get(0)).isEqualTo(Format.EVENT);
        assertThat(e.getInt(1)).isEqualTo(7);
        assertThat(e.getLong(5)).isEqualTo(99L);
        assertThat(e.getInt(13)).isEqualTo(-5);
        assertThat(e.getDouble(17)).isEqualTo(1.5);
        assertThat(e.get(25)).isEqualTo((byte) 1);
        ByteBuffer f = le(r.get(1));
        assertThat(f.getInt(13)).isEqualTo(6);
        assertThat(f.getDouble(17)).isZero();
        assertThat(f.get(25)).isZero();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> b.events().begin(7, types, bytes, 1L).putLong(1))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void recordsMadeWhileAnEventIsBeingFilledComeFirstAndIntact() {
        ThreadBuffer b = new ThreadBuffer(256, false, new Host(), Thread.currentThread(), 1, 1);
        byte[] types = {Format.FIELD_LONG};
        int bytes = 13 + 8;
        EventCursor w = b.events().begin(3, types, bytes, 50L);
        b.enter(1, 60L); // e.g. a probed method computing the field value
        b.exit(1, 61L);
        w.putLong(42L).end();
        List<byte[]> r = drain(b, bytes);
        assertThat(r).extracting(rec -> rec[0]).containsExactly(Format.TRACE_START, Format.ENTER, Format.EXIT,
                Format.EVENT);
        assertThat(le(r.get(3)).getLong(5)).isEqualTo(50L);
        assertThat(le(r.get(3)).getLong(13)).isEqualTo(42L);
    }
}
