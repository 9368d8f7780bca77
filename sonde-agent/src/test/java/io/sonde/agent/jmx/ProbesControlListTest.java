package io.sonde.agent.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.instrument.FakeProbeRegistry;
import io.sonde.agent.instrument.ProbeCatalog;
import io.sonde.api.live.ProbeSwitch;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The listing observers get (PROBE_LIST): pages of the catalogue with each probe's state and who set it. */
class ProbesControlListTest {

    static ProbesControl control(ProbeCatalog catalog) {
        return new ProbesControl(catalog, () -> 0, () -> new String[0], List.of(), "monitoring");
    }

    @Test
    void pagesFollowTheWeavingOrderAndSayWhoSetEachState() {
        ProbeCatalog catalog = new ProbeCatalog(new FakeProbeRegistry());
        for (int i = 0; i < 25; i++) catalog.probeFor("com.shop.C" + i + ".m", "()V");
        catalog.probeFor("org.other.X.run", "(I)V");
        ProbesControl probes = control(catalog);
        probes.disable("com.shop.C1*");
        catalog.switchMatching("com.shop.C12.m", false, ProbeCatalog.Origin.BUDGET, "over budget: 40 % of the cost");
        probes.enable("com.shop.C10.m");

        ProbeSwitch.Page first = probes.list("com.shop.*", 0, 10);
        assertThat(first.total()).isEqualTo(25);
        assertThat(first.offset()).isZero();
        assertThat(first.probes()).extracting(ProbeSwitch.Probe::name).startsWith("com.shop.C0.m", "com.shop.C1.m").hasSize(10);
        ProbeSwitch.Probe c0 = first.probes().get(0);
        assertThat(c0).isEqualTo(new ProbeSwitch.Probe(1, "com.shop.C0.m", "()V", true, ProbeSwitch.Origin.CONFIGURED, ""));
        ProbeSwitch.Probe c1 = first.probes().get(1);
        assertThat(c1.on()).isFalse();
        assertThat(c1.origin()).isEqualTo(ProbeSwitch.Origin.SWITCHED);
        assertThat(c1.detail()).isEqualTo("switched off at run time by pattern 'com.shop.C1*'");

        ProbeSwitch.Page second = probes.list("com.shop.*", 10, 10);
        ProbeSwitch.Probe c10 = second.probes().get(0);
        assertThat(c10.name()).isEqualTo("com.shop.C10.m");
        assertThat(c10.on()).isTrue();
        assertThat(c10.detail()).contains("switched on").contains("com.shop.C10.m");
        ProbeSwitch.Probe c12 = second.probes().get(2);
        assertThat(c12.on()).isFalse();
        assertThat(c12.origin()).isEqualTo(ProbeSwitch.Origin.BUDGET);
        assertThat(c12.detail()).isEqualTo("over budget: 40 % of the cost");

        assertThat(probes.list("com.shop.*", 20, 10).probes()).hasSize(5);
        assertThat(probes.list("com.shop.*", 30, 10).probes()).isEmpty();
        assertThat(probes.list("com.shop.*", 30, 10).total()).isEqualTo(25);
        assertThat(probes.list("*", 0, Integer.MAX_VALUE).probes()).hasSize(26);
        assertThat(probes.list("*.run", 0, 0).total()).isEqualTo(1);
    }

    @Test
    void probesOffByTheAgentsOptionsAreListedAsConfigured() {
        ProbeCatalog catalog = new ProbeCatalog(new FakeProbeRegistry());
        catalog.switchMatching("*", false, ProbeCatalog.Origin.CONFIGURATION, "off by the agent's options (probes=off)");
        catalog.probeFor("com.shop.Cart.add", "(I)V");
        ProbeSwitch.Probe p = control(catalog).list("*", 0, 10).probes().get(0);
        assertThat(p.on()).isFalse();
        assertThat(p.origin()).isEqualTo(ProbeSwitch.Origin.CONFIGURED);
        assertThat(p.detail()).contains("probes=off");
        assertThat(control(null).list("*", 0, 10).total()).as("bad options: no catalogue").isZero();
    }
}
