package io.sonde.format.read;

import static io.sonde.format.testing.GoldenScenarios.COMPRESSED_MONO;
import static io.sonde.format.testing.GoldenScenarios.COMPRESSED_PAIRS;
import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.Format;
import io.sonde.format.RecordLayout.CompressedPayload;
import io.sonde.format.testing.Frames;
import io.sonde.format.testing.GoldenFiles;
import io.sonde.format.testing.GoldenScenarios;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;

/**
 * The golden file {@code 2.4/compressed.sonde} (docs/format.md section 4.4): its COMPRESSED frame
 * decodes with an independent LZ4 implementation to the DATA frame's payload, and the reader
 * delivers exactly the scenario's records.
 */
class GoldenCompressedTest {
    private static final String FILE = "2.4/compressed.sonde";

    @Test
    void theCompressedFrameIsTheDataFrameInLz4BlockFormat() {
        byte[] file = GoldenFiles.bytes(FILE);
        List<Integer> frames = Frames.offsets(file);
        assertThat(frames).hasSize(3);
        int at = frames.get(1);
        int length = Frames.u32(file, at + Format.FRAME_OFF_LENGTH);
        assertThat(file[at + Format.FRAME_OFF_TYPE]).isEqualTo(Format.FRAME_COMPRESSED);
        byte[] data = GoldenScenarios.compressedScenarioDataFrame();
        int h = 62 + GoldenScenarios.COMPRESSED_HOST.length();
        // the header is the DATA frame's, but for type, length and CRC
        assertThat(Arrays.copyOfRange(file, at + Format.FRAME_OFF_FLAGS, at + h))
                .isEqualTo(Arrays.copyOfRange(data, Format.FRAME_OFF_FLAGS, h));
        int p = at + h;
        assertThat(file[p + CompressedPayload.CODEC]).isEqualTo(Format.CODEC_LZ4);
        assertThat(file[p + CompressedPayload.FRAME_TYPE]).isEqualTo(Format.FRAME_DATA);
        int original = Frames.u32(file, p + CompressedPayload.ORIGINAL_LENGTH);
        assertThat(original).isEqualTo(data.length - h);
        byte[] expanded = new byte[original];
        int n = LZ4Factory.safeInstance().safeDecompressor()
                .decompress(file, p + CompressedPayload.DATA, at + length - p - CompressedPayload.DATA, expanded, 0);
        assertThat(n).isEqualTo(original);
        assertThat(expanded).isEqualTo(Arrays.copyOfRange(data, h, data.length));
        assertThat(length).as("smaller than the DATA frame").isLessThan(data.length);
    }

    @Test
    void readsToTheScenarioRecords() throws IOException {
        List<String> expected = new ArrayList<>();
        expected.add("thread 1 \"main\" TRACE_START trace=0x100000001");
        expected.add("thread 1 \"main\" ENTER com.example.Loop.run()V time=" + (COMPRESSED_MONO + 100_000));
        for (int i = 0; i < COMPRESSED_PAIRS; i++) {
            expected.add("thread 1 \"main\" ENTER com.example.Loop.step()V time=" + (COMPRESSED_MONO + 101_000 + 2_500L * i));
            expected.add("thread 1 \"main\" EXIT com.example.Loop.step()V time=" + (COMPRESSED_MONO + 102_000 + 2_500L * i));
        }
        expected.add("thread 1 \"main\" EXIT com.example.Loop.run()V time=" + (COMPRESSED_MONO + 150_000));
        List<String> read = new ArrayList<>();
        try (SondeReader r = SondeReader.of(new ByteArrayInputStream(GoldenFiles.bytes(FILE)), FILE)) {
            while (r.next()) {
                read.add(RecordText.record(r));
            }
            assertThat(r.end().kind()).isEqualTo(ReadEnd.Kind.COMPLETE);
        }
        assertThat(read).isEqualTo(expected);
    }
}
