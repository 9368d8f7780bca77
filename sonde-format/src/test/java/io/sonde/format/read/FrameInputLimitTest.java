package io.sonde.format.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.format.Format;
import io.sonde.format.testing.Frames;
import io.sonde.format.testing.GoldenFiles;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** A caller-set frame limit (the receiver's per-connection memory bound) below the format's 64 MiB. */
class FrameInputLimitTest {

    @Test
    void aFrameDeclaringMoreThanTheLimitIsRejectedBeforeItsBytesAreRead() throws IOException {
        byte[] b = GoldenFiles.bytes("full.sonde");
        Frames.putU32(b, Format.STREAM_HEADER_BYTES + Format.FRAME_OFF_LENGTH, 5000);
        FrameInput in = new FrameInput(new ByteArrayInputStream(b), "peer", 4096);
        assertThat(in.readStreamHeader()).isTrue();
        assertThatThrownBy(in::nextFrame).isInstanceOfSatisfying(FormatException.class, e -> {
            assertThat(e.problem()).isEqualTo(FormatProblem.BAD_FRAME_LENGTH);
            assertThat(e.offset()).isEqualTo(Format.STREAM_HEADER_BYTES + Format.FRAME_OFF_LENGTH);
            assertThat(e.detail()).isEqualTo("frame length 5000 out of range [62, 4096] (this input's limit; the format allows up to "
                    + Format.MAX_FRAME_BYTES + ")");
        });
        assertThat(in.frameBytes().length).isLessThanOrEqualTo(4096);
    }

    @Test
    void framesWithinTheLimitReadAsWithoutOne() throws IOException {
        byte[] b = GoldenFiles.bytes("full.sonde");
        FrameInput limited = new FrameInput(new ByteArrayInputStream(b), "peer", 4096);
        FrameInput plain = new FrameInput(new ByteArrayInputStream(b), "peer");
        assertThat(limited.readStreamHeader()).isEqualTo(plain.readStreamHeader());
        int frames = 0;
        while (plain.nextFrame()) {
            assertThat(limited.nextFrame()).isTrue();
            assertThat(limited.frameLength()).isEqualTo(plain.frameLength());
            frames++;
        }
        assertThat(limited.nextFrame()).isFalse();
        assertThat(frames).isPositive();
    }

    @Test
    void aLimitOutsideTheFormatsRangeIsRefused() {
        assertThatThrownBy(() -> new FrameInput(new ByteArrayInputStream(new byte[0]), "x", Format.MAX_FRAME_BYTES + 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxFrameBytes");
        assertThatThrownBy(() -> new FrameInput(new ByteArrayInputStream(new byte[0]), "x", 61))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
