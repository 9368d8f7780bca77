package io.sonde.format.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * PROBE_LIST and PROBE_LISTING (protocol version 3) with seeded random content: every listing
 * decodes back to itself, and every damaged one (cut short, extra bytes, bad flags or origin, a page
 * that does not fit its total) is refused as malformed, never mis-read.
 */
class ProbeListingCodecPropertyTest {
    static final long SEED = 0x50B3_7157L;
    static final int CASES = 500;

    static String text(Random rnd, int max) {
        int n = rnd.nextInt(max + 1);
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            int pick = rnd.nextInt(10);
            // mostly the characters of class and method names, sometimes non-ASCII (UTF-8 of 2 and 3 bytes)
            b.append(pick < 7 ? (char) ('a' + rnd.nextInt(26)) : pick < 8 ? '.' : pick < 9 ? 'é' : '名');
        }
        return b.toString();
    }

    static ProbeListing listing(Random rnd) {
        int n = rnd.nextInt(12);
        List<ProbeInfo> probes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ProbeInfo.Origin origin = ProbeInfo.Origin.values()[rnd.nextInt(ProbeInfo.Origin.values().length)];
            probes.add(new ProbeInfo(rnd.nextInt(Integer.MAX_VALUE), text(rnd, 60), "(" + text(rnd, 8) + ")V", rnd.nextBoolean(), origin,
                    origin == ProbeInfo.Origin.CONFIGURED ? "" : text(rnd, 120)));
        }
        int offset = rnd.nextInt(100_000);
        int total = offset + n + (rnd.nextBoolean() ? 0 : rnd.nextInt(100_000));
        return new ProbeListing(total, offset, probes);
    }

    static byte[] encode(ProbeListing l, int request) {
        LiveFrameWriter w = ObserveProtocolGoldenTest.writer();
        ObserveCodec.probeListing(w, request, l);
        return ObserveProtocolGoldenTest.payload(w);
    }

    static ProbeListing decode(byte[] payload) {
        PayloadReader r = ObserveProtocolGoldenTest.reader(payload);
        assertThat(r.type()).isEqualTo(ObserveProtocol.PROBE_LISTING);
        r.u32();
        return ObserveCodec.readProbeListing(r);
    }

    @Test
    void everyListingDecodesBackToItself() {
        Random rnd = new Random(SEED);
        for (int i = 0; i < CASES; i++) {
            ProbeListing l = listing(rnd);
            int request = rnd.nextInt(Integer.MAX_VALUE);
            byte[] bytes = encode(l, request);
            PayloadReader r = ObserveProtocolGoldenTest.reader(bytes);
            r.type();
            assertThat(r.u32()).isEqualTo(request);
            ProbeListing back = ObserveCodec.readProbeListing(r);
            assertThat(back).as("case %d (seed %x)", i, SEED).isEqualTo(l);
            assertThat(back.truncated()).isEqualTo(l.offset() + l.probes().size() < l.total());
        }
    }

    @Test
    void everyRequestDecodesBackToItself() {
        Random rnd = new Random(SEED + 1);
        for (int i = 0; i < CASES; i++) {
            String pattern = text(rnd, 80);
            int offset = rnd.nextInt(Integer.MAX_VALUE);
            int limit = rnd.nextInt(Integer.MAX_VALUE);
            LiveFrameWriter w = ObserveProtocolGoldenTest.writer();
            ObserveCodec.probeList(w, i + 1, pattern, offset, limit);
            PayloadReader r = ObserveProtocolGoldenTest.reader(ObserveProtocolGoldenTest.payload(w));
            assertThat(r.type()).isEqualTo(ObserveProtocol.PROBE_LIST);
            assertThat(r.u32()).isEqualTo(i + 1);
            assertThat(r.str()).isEqualTo(pattern);
            assertThat(r.u32()).isEqualTo(offset);
            assertThat(r.u32()).isEqualTo(limit);
            r.end();
        }
        assertThatThrownBy(() -> ObserveCodec.probeList(ObserveProtocolGoldenTest.writer(), 1, "*", -1, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("offset -1");
    }

    @Test
    void everyListingCutShortOrWithExtraBytesIsMalformed() {
        Random rnd = new Random(SEED + 2);
        int checked = 0;
        for (int i = 0; i < CASES; i++) {
            byte[] bytes = encode(listing(rnd), 7);
            if (bytes.length <= 5) continue;
            int cut = 5 + rnd.nextInt(bytes.length - 5); // after type and request id, before the end
            byte[] shorter = Arrays.copyOf(bytes, cut);
            assertThatThrownBy(() -> decode(shorter)).as("cut at %d of %d", cut, bytes.length).isInstanceOf(MalformedMessageException.class);
            byte[] longer = Arrays.copyOf(bytes, bytes.length + 1 + rnd.nextInt(4));
            assertThatThrownBy(() -> decode(longer)).isInstanceOf(MalformedMessageException.class);
            checked++;
        }
        assertThat(checked).isGreaterThan(CASES / 2);
    }

    @Test
    void badFlagsBadOriginsAndPagesBeyondTheTotalAreMalformed() {
        ProbeInfo p = new ProbeInfo(1, "a.B.c", "()V", true, ProbeInfo.Origin.BUDGET, "why");
        byte[] one = encode(new ProbeListing(1, 0, List.of(p)), 1);
        // payload: type, request, total, offset, n (17 bytes); id (4), name (2 + 5), signature (2 + 3): flags at 33, origin at 34
        assertThat(one[33]).isEqualTo((byte) ObserveProtocol.PROBE_FLAG_ON);
        assertThat(one[34]).isEqualTo((byte) ProbeInfo.Origin.BUDGET.ordinal());
        byte[] flags = one.clone();
        flags[33] = 3;
        assertThatThrownBy(() -> decode(flags)).isInstanceOf(MalformedMessageException.class).hasMessageContaining("flags 0x3");
        byte[] origin = one.clone();
        origin[34] = 3;
        assertThatThrownBy(() -> decode(origin)).isInstanceOf(MalformedMessageException.class).hasMessageContaining("origin 3");
        byte[] beyond = one.clone();
        beyond[5] = 0; // total 0 with one probe in the page
        assertThatThrownBy(() -> decode(beyond)).isInstanceOf(MalformedMessageException.class).hasMessageContaining("total of 0");
        assertThat(decode(one)).isEqualTo(new ProbeListing(1, 0, List.of(p)));
    }
}
