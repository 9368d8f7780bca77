package io.sonde.collector.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.Format;
import io.sonde.format.testing.Frames;
import io.sonde.format.testing.RecordBytes;
import io.sonde.format.testing.StreamBytes;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * COMPRESSED frames (format 2.4) in the collector: an envelope holds the frame as it came (the
 * collector stores and forwards it undecoded), counts as a frame with records, never as one with
 * definitions, and decodes, decompressed, to the records of the DATA frame it was made from.
 */
class CompressedEnvelopeTest {
    private static final UUID AGENT = new UUID(9, 9);

    private static List<String> records(DecodedFrame d) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < d.count(); i++) {
            out.add(d.type(i) + " " + d.thread(i) + " " + d.name(i) + " " + d.time(i));
        }
        return out;
    }

    private static List<String> decodeStream(byte[] registry, byte[] data) {
        StreamInfo stream = new StreamInfo(1, AGENT, "h", 1, "peer", 0, StreamBytes.streamHeader(2, 0), true);
        new Envelope(stream, 0, registry, registry.length);
        Envelope e = new Envelope(stream, 1, data, data.length);
        assertThat(e.carriesDefinitions()).isFalse();
        assertThat(Format.holdsRecords(e.type())).isTrue();
        DecodedFrame d = e.decode();
        assertThat(d.problem()).isNull();
        return records(d);
    }

    @Test
    void aCompressedEnvelopeDecodesToTheRecordsOfItsDataFrame() {
        StreamBytes s = new StreamBytes(AGENT, "h", 1, 2, 0);
        byte[] registry = s.dataFrame(0, 0, 0, 0L, new RecordBytes().probeDef(1, "a.B.c", "()V").probeDef(2, "a.B.d", "()V")
                .threadDef(7, "worker"));
        RecordBytes loop = new RecordBytes();
        for (int i = 0; i < 200; i++) {
            loop.enter(1 + i % 2, 1000L + 10 * i).exit(1 + i % 2, 1005L + 10 * i);
        }
        byte[] data = s.dataFrame(1, 0, 0, 7L, loop);
        byte[] compressed = Frames.compressed(data);
        assertThat(compressed[Format.FRAME_OFF_TYPE]).isEqualTo(Format.FRAME_COMPRESSED);

        List<String> plain = decodeStream(registry, data);
        assertThat(plain).hasSize(400);
        assertThat(decodeStream(registry, compressed)).isEqualTo(plain);
    }
}
