package io.sonde.format.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.format.observe.MalformedMessageException;
import io.sonde.format.read.FrameInput;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The golden byte vectors of acknowledged delivery (format 2.2): the frames in
 * {@code golden/2.2/} and the hex lines of docs/format.md section 8 must equal what the codec
 * writes, and decode back to the values written.
 */
class DeliveryGoldenTest {
    static final Path DOC = Path.of("..", "docs", "format.md");
    static final UUID AGENT = UUID.fromString("01234567-89ab-cdef-fedc-ba9876543210");

    static DeliveryCodec agentSide() {
        return new DeliveryCodec(AGENT, 4242, "host-a", () -> 1_763_800_000_000_000_000L, () -> 5_000_000_000L);
    }

    static DeliveryCodec collectorSide() {
        return new DeliveryCodec(AGENT, 77, "col", () -> 1_763_800_001_000_000_000L, () -> 9_000_000_000L);
    }

    /** Each vector: a frame as the spec's scenario writes it. */
    static Map<String, byte[]> vectors() {
        Map<String, byte[]> v = new LinkedHashMap<>();
        v.put("hello", agentSide().hello(new DeliveryMessage.Hello("s3cret", 41, 45)));
        DeliveryCodec c = collectorSide();
        v.put("accept", c.accept(41));
        v.put("ack", c.ack(44));
        v.put("refuse", collectorSide().refuse(DeliveryProtocol.REFUSED_TOKEN, "wrong token"));
        return v;
    }

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) s.append(s.length() == 0 ? "" : " ").append(String.format("%02x", x & 0xFF));
        return s.toString();
    }

    static byte[] golden(String name) throws IOException {
        try (InputStream in = DeliveryGoldenTest.class.getResourceAsStream("/golden/2.2/" + name + ".bin")) {
            assertThat(in).as("golden/2.2/%s.bin", name).isNotNull();
            return in.readAllBytes();
        }
    }

    @Test
    void theCodecWritesTheGoldenFramesByteForByte() throws IOException {
        for (Map.Entry<String, byte[]> e : vectors().entrySet()) {
            assertThat(hex(e.getValue())).as("%s frame", e.getKey()).isEqualTo(hex(golden(e.getKey())));
        }
        assertThat(hex(DeliveryProtocol.streamHeader())).isEqualTo("89 53 4f 4e 44 45 0d 0a 02 00 02 00");
    }

    @Test
    void theDocumentShowsTheSameBytes() throws IOException {
        Map<String, String> doc = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^(HELLO|ACCEPT|ACK|REFUSE) frame \\(2\\.2\\): ((?:[0-9a-f]{2} ?)+)$")
                .matcher(Files.readString(DOC, StandardCharsets.UTF_8));
        while (m.find()) doc.put(m.group(1).toLowerCase(), m.group(2).trim());
        for (Map.Entry<String, byte[]> e : vectors().entrySet()) {
            assertThat(doc.get(e.getKey())).as("golden vector of %s in %s", e.getKey(), DOC).isEqualTo(hex(e.getValue()));
        }
    }

    @Test
    void theGoldenFramesPassTheEnvelopeChecksAndDecodeBack() throws IOException {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        s.write(DeliveryProtocol.streamHeader());
        for (String name : vectors().keySet()) s.write(golden(name));
        FrameInput in = new FrameInput(new ByteArrayInputStream(s.toByteArray()), "golden");
        assertThat(in.readStreamHeader()).isTrue();
        assertThat(in.minorVersion()).isEqualTo(DeliveryProtocol.STREAM_MINOR_VERSION);
        Object[] expected = {new DeliveryMessage.Hello("s3cret", 41, 45), new DeliveryMessage.Accept(41), new DeliveryMessage.Ack(44),
                new DeliveryMessage.Refuse(DeliveryProtocol.REFUSED_TOKEN, "wrong token")};
        for (Object want : expected) {
            assertThat(in.nextFrame()).isTrue();
            assertThat(in.header().agentId()).isEqualTo(AGENT);
            assertThat(DeliveryCodec.decode(in.header(), in.frameBytes())).isEqualTo(want);
        }
        assertThat(in.nextFrame()).isFalse();
    }

    /** The 2.3 HELLO: the 2.2 vector's fields, then the observe endpoint shop-1:7712 without TLS. */
    static byte[] hello23() {
        return agentSide().hello(new DeliveryMessage.Hello("s3cret", 41, 45, new ObserveEndpoint("shop-1", 7712, false)));
    }

    @Test
    void theHelloThatAnnouncesAnObserveEndpointIsGoldenDocumentedAndDecodesBack() throws IOException {
        byte[] golden;
        try (InputStream in = DeliveryGoldenTest.class.getResourceAsStream("/golden/2.3/hello.bin")) {
            assertThat(in).as("golden/2.3/hello.bin").isNotNull();
            golden = in.readAllBytes();
        }
        assertThat(hex(hello23())).isEqualTo(hex(golden));
        Matcher m = Pattern.compile("(?m)^HELLO frame \\(2\\.3\\): ((?:[0-9a-f]{2} ?)+)$").matcher(Files.readString(DOC, StandardCharsets.UTF_8));
        assertThat(m.find()).as("the 2.3 HELLO vector in %s", DOC).isTrue();
        assertThat(m.group(1).trim()).isEqualTo(hex(golden));
        // the 2.2 frame is the 2.3 frame's prefix (length and CRC aside): the new fields are appended
        byte[] old = golden("hello");
        assertThat(java.util.Arrays.copyOfRange(golden, 12, old.length)).isEqualTo(java.util.Arrays.copyOfRange(old, 12, old.length));
        assertThat(hex(DeliveryProtocol.streamHeader(DeliveryProtocol.ANNOUNCE_MINOR_VERSION))).isEqualTo("89 53 4f 4e 44 45 0d 0a 02 00 03 00");
        FrameInput in = reseal(golden);
        assertThat(DeliveryCodec.decode(in.header(), in.frameBytes()))
                .isEqualTo(new DeliveryMessage.Hello("s3cret", 41, 45, new ObserveEndpoint("shop-1", 7712, false)));
        FrameInput old22 = reseal(old);
        assertThat(((DeliveryMessage.Hello) DeliveryCodec.decode(old22.header(), old22.frameBytes())).observe()).isNull();
    }

    @Test
    void aHelloWithAPartialObserveEndpointOrPortZeroOrUnknownFlagsIsRefused() throws IOException {
        byte[] g = hello23();
        FrameInput cut = reseal(java.util.Arrays.copyOf(g, g.length - 1)); // the flags byte missing
        assertThatThrownBy(() -> DeliveryCodec.decode(cut.header(), cut.frameBytes())).isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("u8");
        byte[] zero = g.clone();
        zero[g.length - 11] = 0; // the u16 port (7712 = 20 1e) before str "shop-1" (2 + 6 bytes) and the flags
        zero[g.length - 10] = 0;
        FrameInput z = reseal(zero);
        assertThatThrownBy(() -> DeliveryCodec.decode(z.header(), z.frameBytes())).isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("observe port 0");
        byte[] flags = g.clone();
        flags[g.length - 1] = 4;
        FrameInput f = reseal(flags);
        assertThatThrownBy(() -> DeliveryCodec.decode(f.header(), f.frameBytes())).isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("unknown observe flags 0x4");
        byte[] tls = g.clone();
        tls[g.length - 1] = 1;
        FrameInput t = reseal(tls);
        assertThat(((DeliveryMessage.Hello) DeliveryCodec.decode(t.header(), t.frameBytes())).observe())
                .isEqualTo(new ObserveEndpoint("shop-1", 7712, true));
    }

    @Test
    void aPayloadWithAFieldMissingOrBytesLeftOverIsRefusedNamingTheMessage() throws IOException {
        byte[] ack = golden("ack");
        // cut the i64 short: the frame stays valid (new length, new CRC) but the message does not fit
        byte[] cut = java.util.Arrays.copyOf(ack, ack.length - 4);
        FrameInput in = reseal(cut);
        assertThatThrownBy(() -> DeliveryCodec.decode(in.header(), in.frameBytes())).isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("i64");
        byte[] longer = java.util.Arrays.copyOf(ack, ack.length + 1);
        FrameInput in2 = reseal(longer);
        assertThatThrownBy(() -> DeliveryCodec.decode(in2.header(), in2.frameBytes())).isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("unexpected bytes");
    }

    @Test
    void aRepeatedRegistryFrameIsNotTakenForAGapOrAReorderAndDoesNotStartANewRun(@org.junit.jupiter.api.io.TempDir Path dir)
            throws IOException {
        UUID agent = AGENT;
        io.sonde.format.testing.RecordBytes defs = new io.sonde.format.testing.RecordBytes().probeDef(1, "a.B.c", "()V").threadDef(7, "w");
        // segment 0: frame 0 of a 2.2 connection; segment 1: a reconnection re-sending from frame 1,
        // opened by a repeated registry frame numbered 0 (which must not look like a new run's frame 0)
        io.sonde.format.testing.StreamBytes first = new io.sonde.format.testing.StreamBytes(agent, "h", 1, 2, 2);
        first.data(0, 10, 10, 0L, defs, 7L, new io.sonde.format.testing.RecordBytes().enter(1, 20).exit(1, 21));
        io.sonde.format.testing.StreamBytes second = new io.sonde.format.testing.StreamBytes(agent, "h", 1, 2, 2);
        byte[] repeat = second.dataFrame(0, 30, 30, 0L, defs); // numbered as the frame before the ones that follow
        repeat[io.sonde.format.Format.FRAME_OFF_FLAGS] = DeliveryProtocol.FLAG_REPEAT;
        second.raw(resealed(repeat));
        second.data(1, 40, 40, 7L, new io.sonde.format.testing.RecordBytes().enter(1, 40).exit(1, 41));
        second.trailer(2, 50, 50, 4, 4);
        Path folder = dir.resolve(agent.toString());
        Files.createDirectories(folder);
        Files.write(folder.resolve("sonde-" + agent + "-000000.sonde"), first.toBytes());
        Files.write(folder.resolve("sonde-" + agent + "-000001.sonde"), second.toBytes());

        java.util.List<io.sonde.format.read.AgentLog> logs = io.sonde.format.read.SondeLogs.scan(folder);
        assertThat(logs).as("one run: the second segment opens with a repeat of frame 0, not with a new frame 0").hasSize(1);
        java.util.List<String> problems = new java.util.ArrayList<>();
        long records = 0;
        try (io.sonde.format.read.SondeReader r = logs.get(0).open().recover(p -> problems.add(p.getMessage()))) {
            while (r.next()) {
                if (io.sonde.format.Format.isDataRecord(r.type())) records++;
            }
            assertThat(r.missingFrames()).isZero();
            assertThat(r.trailer().written()).isEqualTo(4);
        }
        assertThat(problems).isEmpty();
        assertThat(records).isEqualTo(4);
    }

    /** The frame with its CRC recomputed (after changing a header byte). */
    private static byte[] resealed(byte[] frame) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(frame, io.sonde.format.Format.FRAME_OFF_TYPE, frame.length - io.sonde.format.Format.FRAME_OFF_TYPE);
        java.nio.ByteBuffer.wrap(frame).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(io.sonde.format.Format.FRAME_OFF_CRC, (int) crc.getValue());
        return frame;
    }

    /** A frame with its length field and CRC set for its new size, read through the envelope checks. */
    private static FrameInput reseal(byte[] frame) throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(frame).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(io.sonde.format.Format.FRAME_OFF_LENGTH, frame.length);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(frame, io.sonde.format.Format.FRAME_OFF_TYPE, frame.length - io.sonde.format.Format.FRAME_OFF_TYPE);
        b.putInt(io.sonde.format.Format.FRAME_OFF_CRC, (int) crc.getValue());
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        s.write(DeliveryProtocol.streamHeader());
        s.write(frame);
        FrameInput in = new FrameInput(new ByteArrayInputStream(s.toByteArray()), "test");
        in.readStreamHeader();
        assertThat(in.nextFrame()).isTrue();
        return in;
    }
}
