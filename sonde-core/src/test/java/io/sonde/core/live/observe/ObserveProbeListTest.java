package io.sonde.core.live.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.api.live.ProbeSwitch;
import io.sonde.format.observe.ObserveCodec;
import io.sonde.format.observe.ObserveProtocol;
import io.sonde.format.observe.PayloadReader;
import io.sonde.format.observe.ProbeInfo;
import io.sonde.format.observe.ProbeListing;
import io.sonde.observer.ObserveException;
import io.sonde.observer.ObserverClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** PROBE_LIST over the wire (protocol version 3): pages, bounds, state origins, and what older versions get. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ObserveProbeListTest extends EndpointFixture {

    /** A switch over {@code n} probes {@code com.shop.C<i>.m} with every third off by the budget; records the limits asked. */
    static final class Catalog implements ProbeSwitch {
        final List<Probe> probes = new ArrayList<>();
        final List<Integer> limits = new ArrayList<>();

        Catalog(int n) {
            for (int i = 0; i < n; i++) {
                boolean budget = i % 3 == 2;
                probes.add(new Probe(100 + i, "com.shop.C" + i + ".m", "(J)V", !budget, budget ? Origin.BUDGET : Origin.CONFIGURED,
                        budget ? "over budget: probe " + i : ""));
            }
        }

        @Override
        public int enable(String pattern) {
            return 0;
        }

        @Override
        public int disable(String pattern) {
            return 0;
        }

        @Override
        public synchronized Page list(String pattern, int offset, int limit) {
            limits.add(limit);
            List<Probe> matching = probes.stream().filter(p -> pattern.equals("*") || p.name().startsWith(pattern.replace("*", ""))).toList();
            int from = Math.min(offset, matching.size());
            return new Page(matching.size(), offset, matching.subList(from, Math.min(matching.size(), from + limit)));
        }
    }

    @Test
    void aListingComesInPagesWithStateOriginAndTruncation() throws Exception {
        Catalog catalog = new Catalog(2500);
        live.registerProbeSwitch(catalog);
        ObserverClient c = connect(new ObserveManagementTest.Log());

        ProbeListing first = c.probes("*", 0, 10);
        assertThat(first.total()).isEqualTo(2500);
        assertThat(first.offset()).isZero();
        assertThat(first.truncated()).isTrue();
        assertThat(first.probes()).hasSize(10);
        assertThat(first.probes().get(0)).isEqualTo(new ProbeInfo(100, "com.shop.C0.m", "(J)V", true, ProbeInfo.Origin.CONFIGURED, ""));
        assertThat(first.probes().get(2)).isEqualTo(new ProbeInfo(102, "com.shop.C2.m", "(J)V", false, ProbeInfo.Origin.BUDGET,
                "over budget: probe 2"));

        ProbeListing big = c.probes("*", 0, Integer.MAX_VALUE);
        assertThat(big.probes()).as("capped whatever the limit").hasSize(ObserveProtocol.MAX_PROBE_PAGE);
        assertThat(catalog.limits).as("the switch is never asked for more than a page").allMatch(l -> l <= ObserveProtocol.MAX_PROBE_PAGE);

        List<ProbeInfo> all = new ArrayList<>();
        for (ProbeListing p = c.probes("*", 0, 700); ; p = c.probes("*", p.nextOffset(), 700)) {
            all.addAll(p.probes());
            if (!p.truncated()) break;
        }
        assertThat(all).extracting(ProbeInfo::id).doesNotHaveDuplicates().hasSize(2500).startsWith(100).endsWith(2599);

        ProbeListing count = c.probes("*", 0, 0);
        assertThat(count.total()).isEqualTo(2500);
        assertThat(count.probes()).isEmpty();
        assertThat(count.truncated()).isTrue();
        ProbeListing beyond = c.probes("*", 9999, 5);
        assertThat(beyond.probes()).isEmpty();
        assertThat(beyond.total()).isEqualTo(2500);
        assertThat(beyond.truncated()).isFalse();
        assertThat(c.probes("com.shop.C1*", 0, 1000).total()).as("C1, C10..C19, C100..C199, C1000..C1999").isEqualTo(1111);
    }

    @Test
    void aPageStopsBeforeFourMebibytesEvenWithHugeNames() throws Exception {
        Catalog catalog = new Catalog(0);
        String longName = "com.shop." + "x".repeat(60_000);
        for (int i = 0; i < 200; i++) catalog.probes.add(new ProbeSwitch.Probe(i, longName + i, "()V", true, ProbeSwitch.Origin.SWITCHED,
                "d".repeat(5_000)));
        live.registerProbeSwitch(catalog);
        ObserverClient c = connect(new ObserveManagementTest.Log());
        ProbeListing p = c.probes("*", 0, 1000);
        assertThat(p.total()).isEqualTo(200);
        assertThat(p.probes()).hasSizeBetween(1, 199);
        assertThat(p.truncated()).isTrue();
        ProbeListing next = c.probes("*", p.nextOffset(), 1000);
        assertThat(next.probes().get(0).id()).isEqualTo(p.probes().size());
    }

    @Test
    void withoutAnAgentOrWithAnEmptyPatternOrAHugeOffsetTheAnswerSaysWhy() throws Exception {
        ObserverClient c = connect(new ObserveManagementTest.Log());
        assertThatThrownBy(() -> c.probes("*", 0, 10)).isInstanceOfSatisfying(ObserveException.class,
                e -> assertThat(e.code()).isEqualTo(ObserveProtocol.ERR_UNAVAILABLE)).hasMessageContaining("PROBE_LIST")
                .hasMessageContaining("no Sonde agent");
        live.registerProbeSwitch(ObserveManagementTest.answering(1, 1, new ArrayList<>()));
        assertThatThrownBy(() -> c.probes("*", 0, 10)).isInstanceOfSatisfying(ObserveException.class,
                e -> assertThat(e.code()).isEqualTo(ObserveProtocol.ERR_UNAVAILABLE)).hasMessageContaining("cannot list");
        live.registerProbeSwitch(new Catalog(3));
        assertThatThrownBy(() -> c.probes("", 0, 10)).isInstanceOfSatisfying(ObserveException.class,
                e -> assertThat(e.code()).isEqualTo(ObserveProtocol.ERR_BAD_ARGUMENT)).hasMessageContaining("empty");
        try (RawConnection raw = new RawConnection(endpoint.port())) {
            ObserveCodec.hello(raw.w, 1, 3, TOKEN);
            raw.send();
            assertThat(raw.answer().type()).isEqualTo(ObserveProtocol.OK);
            raw.w.begin(ObserveProtocol.PROBE_LIST).u32(2).str("*").u32(-1).u32(5); // offset 2^32 - 1
            raw.send();
            assertThat(raw.error(ObserveProtocol.ERR_BAD_ARGUMENT)).contains("offset 4294967295");
        }
        assertThat(c.probes("*", 0, 10).total()).as("the errors changed nothing").isEqualTo(3);
    }

    @Test
    void version2ConnectionsGetNotInVersionAndOldEndpointsAreNamedInTheVersionError() throws Exception {
        live.registerProbeSwitch(new Catalog(3));
        try (RawConnection v2 = new RawConnection(endpoint.port())) {
            ObserveCodec.hello(v2.w, 1, 2, TOKEN);
            v2.send();
            PayloadReader ok = v2.answer();
            assertThat(ok.type()).isEqualTo(ObserveProtocol.OK);
            ObserveCodec.probeList(v2.w, 2, "*", 0, 10);
            v2.send();
            assertThat(v2.error(ObserveProtocol.ERR_NOT_IN_VERSION)).contains("PROBE_LIST").contains("version 2");
            ObserveCodec.patternRequest(v2.w, ObserveProtocol.PROBES_ON, 3, "*");
            v2.send();
            assertThat(v2.answer().type()).as("version 2 requests still served").isEqualTo(ObserveProtocol.OK);
        }
        try (RawConnection v4 = new RawConnection(endpoint.port())) {
            ObserveCodec.hello(v4.w, 1, 4, TOKEN);
            v4.send();
            assertThat(v4.error(ObserveProtocol.ERR_VERSION)).contains("version 4").contains("1 to 3");
        }
    }
}
