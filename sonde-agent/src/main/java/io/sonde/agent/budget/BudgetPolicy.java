package io.sonde.agent.budget;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Which probes one budget step switches off: a pure function, so it is tested without a JVM. */
final class BudgetPolicy {
    private BudgetPolicy() {}

    /**
     * The probes to switch off so that the estimated cost falls by at least {@code excessNanos}:
     * candidates (not pinned, still on, executed in the interval) by descending
     * {@link ProbeLoad#score}, until their summed cost covers the excess. Empty when nothing
     * is over budget; fewer than needed when the candidates run out.
     */
    static List<ProbeLoad> choose(List<ProbeLoad> candidates, double excessNanos, double pairNanos) {
        List<ProbeLoad> out = new ArrayList<>();
        if (excessNanos <= 0) return out;
        List<ProbeLoad> ranked = new ArrayList<>(candidates);
        ranked.sort(Comparator.comparingDouble((ProbeLoad p) -> p.score(pairNanos)).reversed()
                .thenComparing(ProbeLoad::name));
        double covered = 0;
        for (ProbeLoad p : ranked) {
            if (covered >= excessNanos) break;
            if (p.executions() <= 0) continue;
            out.add(p);
            covered += p.costNanos();
        }
        return out;
    }
}
