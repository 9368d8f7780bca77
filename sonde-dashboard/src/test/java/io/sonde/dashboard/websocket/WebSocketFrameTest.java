package io.sonde.dashboard.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WebSocketFrameTest {
    private static final HexFormat HEX = HexFormat.ofDelimiter(" ");

    private static WebSocketFrame text(String s) {
        return new WebSocketFrame(true, WebSocketFrame.TEXT, s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static WebSocketFrame read(byte[] bytes, boolean requireMask) throws IOException {
        return WebSocketFrame.read(new ByteArrayInputStream(bytes), requireMask, 1 << 20);
    }

    private static byte[] hex(String s) {
        return HEX.parseHex(s);
    }

    /** The examples of RFC 6455 section 5.7. */
    @Test
    void encodesTheRfcExamples() throws IOException {
        assertThat(HEX.formatHex(text("Hello").encode(null))).isEqualTo("81 05 48 65 6c 6c 6f");
        byte[] masked = text("Hello").encode(hex("37 fa 21 3d"));
        assertThat(HEX.formatHex(masked)).isEqualTo("81 85 37 fa 21 3d 7f 9f 4d 51 58");
        assertThat(read(masked, true)).isEqualTo(text("Hello"));
        // a fragmented unmasked text message: "Hel" then "lo"
        assertThat(read(hex("01 03 48 65 6c"), false)).isEqualTo(new WebSocketFrame(false, WebSocketFrame.TEXT, "Hel".getBytes()));
        assertThat(read(hex("80 02 6c 6f"), false)).isEqualTo(new WebSocketFrame(true, WebSocketFrame.CONTINUATION, "lo".getBytes()));
        // a ping with "Hello", and 256 and 65536 bytes of binary data (16- and 64-bit lengths)
        assertThat(HEX.formatHex(new WebSocketFrame(true, WebSocketFrame.PING, "Hello".getBytes()).encode(null))).isEqualTo("89 05 48 65 6c 6c 6f");
        byte[] b256 = new WebSocketFrame(true, WebSocketFrame.BINARY, new byte[256]).encode(null);
        assertThat(HEX.formatHex(Arrays.copyOf(b256, 4))).isEqualTo("82 7e 01 00");
        assertThat(b256).hasSize(4 + 256);
        byte[] b64k = new WebSocketFrame(true, WebSocketFrame.BINARY, new byte[65536]).encode(null);
        assertThat(HEX.formatHex(Arrays.copyOf(b64k, 10))).isEqualTo("82 7f 00 00 00 00 00 01 00 00");
        assertThat(b64k).hasSize(10 + 65536);
    }

    /** Length encodings at their boundaries, masked and not: a frame reads back as written. */
    @Test
    void lengthBoundariesRoundTrip() throws IOException {
        for (int n : new int[] {0, 1, 125, 126, 127, 65535, 65536, 70000}) {
            byte[] payload = new byte[n];
            new SplittableRandom(n).nextBytes(payload);
            WebSocketFrame f = new WebSocketFrame(true, WebSocketFrame.BINARY, payload);
            assertThat(read(f.encode(null), false)).as("%d bytes unmasked", n).isEqualTo(f);
            assertThat(read(f.encode(new byte[] {1, 2, 3, 4}), true)).as("%d bytes masked", n).isEqualTo(f);
            int head = n <= 125 ? 2 : n <= 65535 ? 4 : 10;
            assertThat(f.encode(null)).hasSize(head + n);
        }
    }

    /** Seeded random streams of frames (all opcodes, lengths around every boundary, masked or not) decode to what was encoded. */
    @Test
    void randomFrameStreamsDecodeToWhatWasEncoded() {
        qt().withExamples(300).forAll(longs().all()).checkAssert(seed -> {
            SplittableRandom r = new SplittableRandom(seed);
            boolean masked = r.nextBoolean();
            List<WebSocketFrame> frames = new ArrayList<>();
            ByteArrayOutputStream stream = new ByteArrayOutputStream();
            int count = 1 + r.nextInt(8);
            for (int i = 0; i < count; i++) {
                WebSocketFrame f = randomFrame(r);
                frames.add(f);
                byte[] key = null;
                if (masked) {
                    key = new byte[4];
                    r.nextBytes(key);
                }
                stream.writeBytes(f.encode(key));
            }
            ByteArrayInputStream in = new ByteArrayInputStream(stream.toByteArray());
            try {
                for (WebSocketFrame expected : frames) assertThat(WebSocketFrame.read(in, masked, 1 << 20)).isEqualTo(expected);
                assertThat(WebSocketFrame.read(in, masked, 1 << 20)).as("clean end after the last frame").isNull();
            } catch (IOException e) {
                throw new AssertionError("seed " + seed, e);
            }
        });
    }

    private static WebSocketFrame randomFrame(SplittableRandom r) {
        int[] opcodes = {WebSocketFrame.CONTINUATION, WebSocketFrame.TEXT, WebSocketFrame.BINARY, WebSocketFrame.CLOSE, WebSocketFrame.PING,
            WebSocketFrame.PONG};
        int opcode = opcodes[r.nextInt(opcodes.length)];
        boolean control = (opcode & 8) != 0;
        int[] sizes = {0, 1, 124, 125, 126, 127, 65535, 65536};
        int n = control ? r.nextInt(126) : r.nextInt(4) == 0 ? sizes[r.nextInt(sizes.length)] : r.nextInt(300);
        byte[] payload = new byte[n];
        r.nextBytes(payload);
        return new WebSocketFrame(control || r.nextBoolean(), opcode, payload);
    }

    @Test
    void refusesFramesThatBreakTheRules() {
        assertThatThrownBy(() -> read(text("x").encode(null), true)).isInstanceOf(WebSocketException.class).hasMessage("client frame not masked")
                .extracting(e -> ((WebSocketException) e).closeCode()).isEqualTo(1002);
        assertThatThrownBy(() -> read(hex("c1 00"), false)).hasMessageContaining("reserved bits set");
        assertThatThrownBy(() -> read(hex("83 00"), false)).hasMessage("unknown opcode 3");
        assertThatThrownBy(() -> read(hex("0b 00"), false)).hasMessage("unknown opcode 11");
        assertThatThrownBy(() -> read(hex("09 00"), false)).hasMessage("fragmented control frame");
        assertThatThrownBy(() -> read(hex("89 7e 00 7e"), false)).hasMessage("control frame payload of 126 bytes (at most 125)");
        assertThatThrownBy(() -> read(hex("82 7f 80 00 00 00 00 00 00 00"), false)).hasMessageContaining("most significant bit");
        assertThatThrownBy(() -> WebSocketFrame.read(new ByteArrayInputStream(hex("82 7e 01 00")), false, 255))
                .isInstanceOf(WebSocketException.class).hasMessage("frame of 256 bytes (at most 255)")
                .extracting(e -> ((WebSocketException) e).closeCode()).isEqualTo(1009);
        assertThatThrownBy(() -> read(hex("81 05 48 65"), false)).isInstanceOf(EOFException.class);
        assertThatThrownBy(() -> read(hex("81"), false)).isInstanceOf(EOFException.class);
        assertThatThrownBy(() -> text("x").encode(new byte[3])).isInstanceOf(IllegalArgumentException.class);
    }
}
