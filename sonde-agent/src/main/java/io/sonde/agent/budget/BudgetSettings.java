package io.sonde.agent.budget;

import io.sonde.agent.pattern.Glob;
import io.sonde.core.config.ConfigKey;
import io.sonde.core.config.SondeConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The overhead budget as configured: {@code budget=PERCENT}, {@code budget.pin=PATTERN;PATTERN},
 * {@code budget.interval.ms}, {@code budget.trivial} and {@code budget.state=FILE}.
 *
 * @param percent the most the agent may cost, in percent of the application's own CPU time
 * @param pins probes whose names match one of these are never switched off by the budget
 * @param intervalMillis how often cost and CPU time are compared
 * @param state the file that keeps the switched-off probes from one start to the next, or null
 * @param trivial whether trivial methods are left out of the code when first woven
 */
public record BudgetSettings(double percent, List<Glob> pins, long intervalMillis, Path state, boolean trivial) {

    public BudgetSettings {
        pins = List.copyOf(pins);
    }

    /** The budget of a (validated) configuration, or null when {@code budget=off}. */
    public static BudgetSettings of(SondeConfig config) {
        double percent = ConfigKey.budgetPercent(config.get(ConfigKey.BUDGET));
        if (percent < 0) return null;
        List<Glob> pins = new ArrayList<>();
        for (String p : config.get(ConfigKey.BUDGET_PIN).split(";")) {
            if (!p.isBlank()) pins.add(Glob.of(p.strip()));
        }
        String state = config.get(ConfigKey.BUDGET_STATE).strip();
        return new BudgetSettings(percent, pins, config.getLong(ConfigKey.BUDGET_INTERVAL_MS),
                state.isEmpty() ? null : Path.of(state).toAbsolutePath(), config.get(ConfigKey.BUDGET_TRIVIAL).equals("on"));
    }

    /** True when the probe name matches a pin. */
    public boolean pinned(String probeName) {
        for (Glob g : pins) {
            if (g.matches(probeName)) return true;
        }
        return false;
    }
}
