package io.sonde.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.core.buffer.ThreadBuffer;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.writer.FrameDroppedException;
import io.sonde.format.DropReason;
import io.sonde.format.Format;
import io.sonde.format.read.FormatProblem;
import io.sonde.format.read.SondeReader;
import io.sonde.format.read.Trailer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A frame that carried definitions (a registry block) and is lost — reported after {@code write}
 * returned (writer=kafka: the broker refused it), dropped by the writer at once
 * ({@link FrameDroppedException}), or the registry frame that opens the stream — must not make the
 * rest of the stream unreadable: the writer loop sends every definition again, in a frame of its
 * own, before its next frame. The streams are read back with {@link SondeReader}, strictly and in
 * recovery mode. Manual mode: deterministic, no writer thread.
 */
@Timeout(60)
class DefinitionsLostTest {
    private static final int ROUNDS = 4;
    private static final int CALLS_PER_ROUND = 100; // 2 records each
    private static final long PER_ROUND = 2L * CALLS_PER_ROUND;

    /** How the capturing writer loses the frames {@link Capture#lose} picks. */
    enum Loss { AFTER_WRITE, AT_ONCE }

    /**
     * Keeps the stream it is given, minus the frames it loses: the k-th frame handed over (registry
     * frames at open included, counted from 0) is lost when {@code lose} says so.
     */
    static final class Capture extends CapturingWriter {
        final IntPredicate lose;
        final Loss loss;
        final List<Boolean> definitionsPerFrame = new ArrayList<>();

        Capture(IntPredicate lose, Loss loss) {
            this.lose = lose;
            this.loss = loss;
        }

        @Override
        public void write(ByteBuffer frame) throws IOException {
            if (frame.get(Format.FRAME_OFF_TYPE) == Format.FRAME_DATA && loss == Loss.AT_ONCE
                    && lose.test(definitionsPerFrame.size())) {
                definitionsPerFrame.add(context.definitionsInFrame());
                throw new FrameDroppedException("lost at once (test)", null);
            }
            super.write(frame);
        }

        @Override
        void take(ByteBuffer sealed) {
            boolean definitions = context.definitionsInFrame();
            long records = context.recordsInFrame();
            int index = definitionsPerFrame.size();
            definitionsPerFrame.add(definitions);
            if (sealed.get(sealed.position() + Format.FRAME_OFF_TYPE) == Format.FRAME_DATA && lose.test(index)) {
                // refused later, on another thread (as a producer's callback is): nothing of it reaches the stream
                Thread callback = new Thread(() -> {
                    if (records > 0) context.droppedAfterWrite(DropReason.WRITER_FAILED, records);
                    if (definitions) context.definitionsLostAfterWrite();
                });
                callback.start();
                try {
                    callback.join();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                return;
            }
            keep(sealed);
        }
    }

    /** What reading the captured stream gave. */
    record Read(long records, List<String> probes, List<FormatProblem> problems, Trailer trailer) {}

    private static Read read(Capture w, boolean recover) throws IOException {
        List<FormatProblem> problems = new ArrayList<>();
        List<String> probes = new ArrayList<>();
        long records = 0;
        Trailer trailer;
        try (SondeReader r = SondeReader.of(w.stream(), "capture")) {
            if (recover) r.recover(p -> problems.add(p.problem()));
            while (r.next()) {
                if (r.type() == Format.ENTER) {
                    records++;
                    if (!probes.contains(r.probeName())) probes.add(r.probeName());
                } else if (r.type() == Format.EXIT) {
                    records++;
                }
            }
            trailer = r.trailer();
        }
        return new Read(records, probes, problems, trailer);
    }

    /**
     * Round 0 defines a new probe and uses it: its frame carries that definition (and the thread's);
     * rounds 1 to 3 use the probe. Returns the pipeline, closed.
     */
    private static Pipeline run(Capture w, boolean probeBeforeOpen) throws IOException {
        Pipeline p = new Pipeline(SondeConfig.of(Map.of("policy", "block-forever", "frame.bytes", "65536")), w,
                Identity.of(new UUID(5, 6)), false, true);
        int early = probeBeforeOpen ? p.defineProbe("com.example.Shop.open", "()V") : 0;
        p.manualOpen();
        ThreadBuffer b = p.newBuffer(Thread.currentThread(), 1, "main", 1, 1 << 16);
        int probe = probeBeforeOpen ? early : p.defineProbe("com.example.Shop.buy", "()V");
        long t = 1_000;
        for (int round = 0; round < ROUNDS; round++) {
            for (int call = 0; call < CALLS_PER_ROUND; call++) {
                b.enter(probe, t++);
                b.exit(probe, t++);
            }
            p.manualDrain();
            p.manualEmitFrame();
        }
        p.close();
        return p;
    }

    @Test
    void aFrameWithDefinitionsLostAfterWriteIsFollowedByTheDefinitionsAgain() throws IOException {
        // frame 0: the registry frame at open (nothing defined yet); frame 1: round 0, with the definitions
        Capture w = new Capture(k -> k == 1, Loss.AFTER_WRITE);
        Pipeline p = run(w, false);
        assertThat(w.definitionsPerFrame.subList(0, 2)).as("the loop says which frames carry definitions").containsExactly(true, true);

        Read strict = read(w, false);
        assertThat(strict.records()).as("every record after the lost frame is readable").isEqualTo((ROUNDS - 1) * PER_ROUND);
        assertThat(strict.probes()).containsExactly("com.example.Shop.buy");
        Read recovered = read(w, true);
        assertThat(recovered.problems()).as("the lost frame shows as a gap, nothing else").containsExactly(FormatProblem.SEQUENCE_GAP);
        assertThat(recovered.trailer().written()).isEqualTo((ROUNDS - 1) * PER_ROUND).isEqualTo(recovered.records());
        assertThat(recovered.trailer().dropped(DropReason.WRITER_FAILED)).isEqualTo(PER_ROUND);
        assertThat(recovered.trailer().balanced()).isTrue();
        assertThat(p.counters().written()).isEqualTo((ROUNDS - 1) * PER_ROUND);
    }

    @Test
    void aFrameWithDefinitionsDroppedAtOnceIsFollowedByTheDefinitionsAgain() throws IOException {
        Capture w = new Capture(k -> k == 1, Loss.AT_ONCE);
        Pipeline p = run(w, false);
        assertThat(w.definitionsPerFrame.get(1)).isTrue();

        Read strict = read(w, false);
        assertThat(strict.records()).isEqualTo((ROUNDS - 1) * PER_ROUND);
        Read recovered = read(w, true);
        assertThat(recovered.problems()).as("a frame dropped before sealing leaves no gap").isEmpty();
        assertThat(recovered.trailer().written()).isEqualTo(recovered.records());
        assertThat(recovered.trailer().balanced()).isTrue();
        assertThat(p.counters().dropped(DropReason.WRITER_FAILED)).isEqualTo(PER_ROUND);
    }

    @Test
    void theRegistryFrameThatOpensTheStreamLostAfterWriteIsSentAgain() throws IOException {
        // the probe is defined before open: only the opening registry frame (frame 0) defines it
        Capture w = new Capture(k -> k == 0, Loss.AFTER_WRITE);
        run(w, true);

        Read recovered = read(w, true);
        assertThat(recovered.problems()).as("the stream starts at frame 1: nothing before it to see a gap").isEmpty();
        assertThat(recovered.records()).isEqualTo(ROUNDS * PER_ROUND).isEqualTo(recovered.trailer().written());
        assertThat(recovered.probes()).containsExactly("com.example.Shop.open");
    }

    @ParameterizedTest
    @EnumSource(Loss.class)
    void whileTheDefinitionsCannotBeSentAgainTheFramesAfterThemAreDroppedToo(Loss loss) throws IOException {
        // frame 1 (round 0, with definitions) and the next frame handed over (the definitions sent again) are
        // lost; the definitions go out again before round 2, round 1 is dropped with them
        Capture w = new Capture(k -> k == 1 || k == 2, loss);
        Pipeline p = run(w, false);
        assertThat(w.definitionsPerFrame.subList(0, 5)).as("registry, round 0, definitions again, definitions again, round 2")
                .containsExactly(true, true, true, true, false);

        Read recovered = read(w, true);
        // lost after write, frames 1 and 2 had their numbers: one jump; dropped at once, they had none
        assertThat(recovered.problems()).isEqualTo(loss == Loss.AT_ONCE ? List.of() : List.of(FormatProblem.SEQUENCE_GAP));
        assertThat(recovered.records()).isEqualTo((ROUNDS - 2) * PER_ROUND).isEqualTo(recovered.trailer().written());
        assertThat(recovered.trailer().dropped(DropReason.WRITER_FAILED)).isEqualTo(2 * PER_ROUND);
        assertThat(recovered.trailer().balanced()).isTrue();
        assertThat(p.counters().written()).isEqualTo((ROUNDS - 2) * PER_ROUND);
    }

    @Test
    void aLostFrameWithoutDefinitionsAddsNoFrame() throws IOException {
        Capture lossless = new Capture(k -> false, Loss.AFTER_WRITE);
        run(lossless, false);
        // frame 2 is round 1: no definitions in it
        Capture w = new Capture(k -> k == 2, Loss.AFTER_WRITE);
        run(w, false);
        assertThat(w.definitionsPerFrame.get(2)).isFalse();
        assertThat(w.definitionsPerFrame).as("the same frames as without the loss").hasSameSizeAs(lossless.definitionsPerFrame);
        Read recovered = read(w, true);
        assertThat(recovered.problems()).containsExactly(FormatProblem.SEQUENCE_GAP);
        assertThat(recovered.records()).isEqualTo((ROUNDS - 1) * PER_ROUND);
    }
}
