package io.sonde.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The budget keys are checked where they are given, like every key. */
class BudgetKeysTest {
    @Test
    void budgetIsOffOrAPercentage() {
        assertThat(SondeConfig.of(Map.of()).get(ConfigKey.BUDGET)).isEqualTo("off");
        assertThat(ConfigKey.budgetPercent("off")).isNegative();
        assertThat(ConfigKey.budgetPercent("5")).isEqualTo(5);
        assertThat(ConfigKey.budgetPercent("2.5 %")).isEqualTo(2.5);
        for (String bad : new String[] {"0", "101", "-3", "five", "1e2", "NaN"}) {
            assertThatThrownBy(() -> SondeConfig.of(Map.of("budget", bad))).as(bad)
                    .isInstanceOf(ConfigException.class).hasMessageContaining("'budget'");
        }
        assertThatThrownBy(() -> SondeConfig.of(Map.of("budget.pin", "a.*;;b.*")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("empty pattern");
        assertThatThrownBy(() -> SondeConfig.of(Map.of("budget.interval.ms", "10")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("between 50 and 60000");
    }
}
