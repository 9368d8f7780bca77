package io.sonde.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.writer.WriterContext;
import io.sonde.format.DropReason;
import io.sonde.format.Format;
import io.sonde.format.read.SondeReader;
import io.sonde.format.read.Trailer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A writer that learns only after {@code write} returned that a frame was lost (writer=kafka: the
 * broker refuses or the producer aborts it) reports the frame's records; they move from written to
 * dropped (writer-failed): in the trailer when reported before {@code awaitDelivery} returned, in
 * the pipeline's counters when reported later. Manual mode: deterministic, no writer thread.
 */
@Timeout(60)
class DroppedAfterWriteTest {
    private static final int FRAMES = 5;
    private static final int CALLS_PER_FRAME = 100; // 2 records each

    /** Keeps the stream; loses data frames 1 and 3 and 4 "later": 1 while running, 3 while close waits, 4 after the trailer. */
    static final class LateLosses extends CapturingWriter {
        final List<Long> recordsPerDataFrame = new ArrayList<>();
        final List<Long> recordsSeenForOtherFrames = new ArrayList<>();
        private boolean opening;

        @Override
        public void open(WriterContext context) throws IOException {
            opening = true;
            try {
                super.open(context);
            } finally {
                opening = false;
            }
        }

        @Override
        void take(ByteBuffer sealed) {
            long records = context.recordsInFrame();
            byte type = sealed.get(sealed.position() + Format.FRAME_OFF_TYPE);
            keep(sealed);
            if (opening || type != Format.FRAME_DATA) {
                // the registry frames at open, the trailer
                recordsSeenForOtherFrames.add(records);
                return;
            }
            recordsPerDataFrame.add(records);
            if (recordsPerDataFrame.size() == 2) {
                // frame 1: the refusal arrives on another thread (as a producer's callback does)
                Thread callback = new Thread(() -> context.droppedAfterWrite(DropReason.WRITER_FAILED, records));
                callback.start();
                try {
                    callback.join();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
        }

        @Override
        public void awaitDelivery() {
            context.droppedAfterWrite(DropReason.WRITER_FAILED, recordsPerDataFrame.get(3));
        }
    }

    @Test
    void recordsLostAfterWriteMoveFromWrittenToDroppedInTheTrailerAndTheCounters() throws IOException {
        LateLosses writer = new LateLosses();
        Pipeline p = new Pipeline(SondeConfig.of(Map.of("policy", "block-forever", "frame.bytes", "65536")), writer,
                Identity.of(new UUID(3, 4)), false, true);
        int probe = p.defineProbe("com.example.Shop.buy", "()V");
        p.manualOpen();
        ThreadBuffer b = p.newBuffer(Thread.currentThread(), 1, "main", 1, 1 << 16);
        long t = 1_000;
        for (int frame = 0; frame < FRAMES; frame++) {
            for (int call = 0; call < CALLS_PER_FRAME; call++) {
                b.enter(probe, t++);
                b.exit(probe, t++);
            }
            p.manualDrain();
            p.manualEmitFrame();
        }
        long perFrame = 2L * CALLS_PER_FRAME;
        RecordCounts running = p.counters();
        assertThat(running.written()).as("frame 1 reported lost while running: " + running).isEqualTo(4 * perFrame);
        assertThat(running.dropped(DropReason.WRITER_FAILED)).isEqualTo(perFrame);

        p.close();
        assertThat(writer.recordsPerDataFrame).as("records the loop said each data frame holds").containsOnly(perFrame).hasSize(FRAMES);
        assertThat(writer.recordsSeenForOtherFrames).as("registry frames and the trailer hold no data records").isNotEmpty().containsOnly(0L);
        Trailer trailer;
        try (SondeReader r = SondeReader.of(writer.stream(), "capture")) {
            while (r.next()) {
                // the records themselves are not the point here
            }
            trailer = r.trailer();
        }
        assertThat(trailer).isNotNull();
        assertThat(trailer.written()).as("the trailer counts frames 1 and 3 as lost").isEqualTo(3 * perFrame);
        assertThat(trailer.dropped(DropReason.WRITER_FAILED)).isEqualTo(2 * perFrame);
        assertThat(trailer.balanced()).isTrue();
        assertThat(p.counters().written()).isEqualTo(3 * perFrame);

        // frame 4 is given up after the trailer (the writer's close deadline passed): the counters still account for it
        writer.context.droppedAfterWrite(DropReason.WRITER_FAILED, perFrame);
        RecordCounts after = p.counters();
        assertThat(after.produced()).isEqualTo(FRAMES * perFrame);
        assertThat(after.written()).isEqualTo(2 * perFrame);
        assertThat(after.dropped(DropReason.WRITER_FAILED)).isEqualTo(3 * perFrame);
        assertThat(after.dropped()).isEqualTo(3 * perFrame);
        assertThat(after.inFlight()).isZero();
    }
}
