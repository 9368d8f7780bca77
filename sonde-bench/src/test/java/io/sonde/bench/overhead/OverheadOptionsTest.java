package io.sonde.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class OverheadOptionsTest {

    @Test
    void parsesEveryOption() {
        OverheadOptions o = OverheadOptions.parse(new String[] {"--threads", "1,2,4", "--calls", "1000", "--runs", "2",
                "--frameworks", "kieker,sonde", "--phases", "no-instrumentation,file", "--out", "x", "--depth", "5",
                "--method-time", "7", "--jdk", System.getProperty("java.home")});
        assertThat(o.threads()).containsExactly(1, 2, 4);
        assertThat(o.calls()).isEqualTo(1000);
        assertThat(o.runs()).isEqualTo(2);
        assertThat(o.frameworks()).containsExactly("kieker", "sonde");
        assertThat(o.phases()).containsExactly(Phase.NO_INSTRUMENTATION, Phase.FILE);
        assertThat(o.out()).isEqualTo(Path.of("x"));
        assertThat(o.depth()).isEqualTo(5);
        assertThat(o.methodTimeNanos()).isEqualTo(7);
        assertThat(o.jdks()).containsExactly(Path.of(System.getProperty("java.home")));
    }

    @Test
    void quickIsASmallRunUnlessOverridden() {
        OverheadOptions quick = OverheadOptions.parse(new String[] {"--quick"});
        assertThat(quick.calls()).isLessThanOrEqualTo(10_000);
        assertThat(quick.runs()).isEqualTo(1);
        assertThat(quick.threads()).isEqualTo(List.of(1));
        assertThat(OverheadOptions.parse(new String[] {"--quick", "--calls", "500"}).calls()).isEqualTo(500);
        OverheadOptions full = OverheadOptions.parse(new String[0]);
        assertThat(full.calls()).isGreaterThan(quick.calls());
        assertThat(full.frameworks()).containsExactly("sonde", "kieker", "otel");
        assertThat(full.phases()).containsExactly(Phase.values());
    }

    @Test
    void badOptionsNameTheOptionAndTheProblem() {
        assertThatThrownBy(() -> OverheadOptions.parse(new String[] {"--calls", "ten"}))
                .hasMessageContaining("--calls").hasMessageContaining("'ten'");
        assertThatThrownBy(() -> OverheadOptions.parse(new String[] {"--threads", "0"}))
                .hasMessageContaining("--threads").hasMessageContaining("minimum");
        assertThatThrownBy(() -> OverheadOptions.parse(new String[] {"--frameworks", "sonde,dynatrace"}))
                .hasMessageContaining("--frameworks").hasMessageContaining("dynatrace");
        assertThatThrownBy(() -> OverheadOptions.parse(new String[] {"--phases", "sampling"}))
                .hasMessageContaining("--phases").hasMessageContaining("sampling");
        assertThatThrownBy(() -> OverheadOptions.parse(new String[] {"--jdk", "/no/such/jdk"}))
                .hasMessageContaining("--jdk").hasMessageContaining("/no/such/jdk");
        assertThatThrownBy(() -> OverheadOptions.parse(new String[] {"--runs"}))
                .hasMessageContaining("--runs").hasMessageContaining("needs a value");
        assertThatThrownBy(() -> OverheadOptions.parse(new String[] {"--bogus", "1"}))
                .hasMessageContaining("unknown option --bogus");
    }
}
