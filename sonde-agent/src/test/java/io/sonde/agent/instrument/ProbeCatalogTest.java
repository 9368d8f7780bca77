package io.sonde.agent.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProbeCatalogTest {

    @Test
    void sameMethodSameIdAndSwitchesByPattern() {
        FakeProbeRegistry reg = new FakeProbeRegistry();
        ProbeCatalog c = new ProbeCatalog(reg);
        int a = c.probeFor("com.acme.Shop.price", "(I)I");
        assertThat(c.probeFor("com.acme.Shop.price", "(I)I")).isEqualTo(a); // enter and exit advice both ask
        int b = c.probeFor("com.acme.Shop.price", "(J)I"); // overload: its own probe
        int d = c.probeFor("com.acme.Cart.total", "()I");
        assertThat(List.of(a, b, d)).doesNotHaveDuplicates();
        assertThat(reg.names).hasSize(3);

        assertThat(c.switchMatching("*.price", false)).isEqualTo(2);
        assertThat(c.switchMatching("*.price", false)).isZero(); // already off
        assertThat(c.isEnabled(a)).isFalse();
        assertThat(c.isEnabled(d)).isTrue();
        assertThat(c.matching("com.acme.Shop.*")).extracting(ProbeCatalog.Probe::id).containsExactly(a, b);
    }

    @Test
    void probesOfClassesLoadedLaterFollowTheLastMatchingSwitch() {
        FakeProbeRegistry reg = new FakeProbeRegistry();
        ProbeCatalog c = new ProbeCatalog(reg);
        c.switchMatching("com.acme.*", false);
        c.switchMatching("com.acme.Shop.*", true);
        int later = c.probeFor("com.acme.Cart.total", "()I");
        int shop = c.probeFor("com.acme.Shop.price", "(I)I");
        int other = c.probeFor("org.x.Y.run", "()V");
        assertThat(c.isEnabled(later)).isFalse();
        assertThat(c.isEnabled(shop)).isTrue();
        assertThat(c.isEnabled(other)).isTrue();
        assertThat(c.size()).isEqualTo(3);
    }

    @Test
    void theLastMatchingRuleSaysWhoSetAProbesState() {
        ProbeCatalog c = new ProbeCatalog(new FakeProbeRegistry());
        c.probeFor("com.acme.Shop.price", "(I)I");
        assertThat(c.lastSwitch("com.acme.Shop.price")).as("no rule: as configured").isNull();
        c.switchMatching("*", false, ProbeCatalog.Origin.CONFIGURATION, "probes=off");
        c.switchMatching("com.acme.*", true);
        c.switchMatching("com.acme.Shop.price", false, ProbeCatalog.Origin.BUDGET, "over budget");
        assertThat(c.lastSwitch("com.acme.Shop.price").origin()).isEqualTo(ProbeCatalog.Origin.BUDGET);
        assertThat(c.lastSwitch("com.acme.Shop.price").why()).isEqualTo("over budget");
        ProbeCatalog.SwitchRule cart = c.lastSwitch("com.acme.Cart.total");
        assertThat(cart.origin()).isEqualTo(ProbeCatalog.Origin.OPERATOR);
        assertThat(cart.why()).isEqualTo("switched on at run time by pattern 'com.acme.*'");
        assertThat(c.lastSwitch("org.x.Y.run").origin()).isEqualTo(ProbeCatalog.Origin.CONFIGURATION);
    }

    @Test
    void probesTakenOutOfTheCodeStayListedAndASwitchOnPutsThemBackByReweavingTheirClasses() {
        ProbeCatalog c = new ProbeCatalog(new FakeProbeRegistry());
        java.util.List<java.util.Set<String>> rewoven = new java.util.ArrayList<>();
        c.onReweave(classes -> {
            rewoven.add(classes);
            return classes.size();
        });
        int price = c.probeFor("com.acme.Shop.price", "(I)I");
        c.probeFor("com.acme.Shop.price", "(J)I");
        c.probeFor("com.acme.Cart.total", "()I");
        assertThat(c.woven("com.acme.Shop.price")).isTrue();

        c.switchMatching("com.acme.Shop.price", false, ProbeCatalog.Origin.BUDGET, "over budget");
        assertThat(c.removeFromCode(List.of("com.acme.Shop.price", "com.acme.Cart.total"))).isEqualTo(2);
        assertThat(rewoven).containsExactly(java.util.Set.of("com.acme.Shop", "com.acme.Cart")); // one batch
        assertThat(c.woven("com.acme.Shop.price")).isFalse();
        assertThat(c.woven("com.acme.Shop.other")).isTrue();
        assertThat(c.removeFromCode(List.of("com.acme.Shop.price"))).as("already out: nothing to do").isZero();
        assertThat(c.size()).as("still registered").isEqualTo(3);
        assertThat(c.isEnabled(price)).isFalse();
        assertThat(c.removedFromCode()).containsExactly("com.acme.Cart.total", "com.acme.Shop.price");

        rewoven.clear();
        c.switchMatching("com.acme.Shop.*", true);
        assertThat(rewoven).containsExactly(java.util.Set.of("com.acme.Shop"));
        assertThat(c.woven("com.acme.Shop.price")).isTrue();
        assertThat(c.isEnabled(price)).isTrue();
        assertThat(c.woven("com.acme.Cart.total")).as("not switched on: stays out").isFalse();
        rewoven.clear();
        c.switchMatching("com.acme.*", false);
        assertThat(rewoven).as("switching off re-weaves nothing").isEmpty();
    }
}
