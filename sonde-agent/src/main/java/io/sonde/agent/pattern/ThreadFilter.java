package io.sonde.agent.pattern;

import java.util.List;

/**
 * Decides which threads are monitored, by thread name. Rules apply top to bottom, the first match
 * decides. A name no rule matches is monitored unless the filter has at least one include rule
 * (so {@code include.thread=worker-*} alone means "only the workers", and
 * {@code exclude.thread=noisy-*} alone means "all but the noisy ones").
 */
public final class ThreadFilter {

    private final List<Rule> rules;
    private final boolean defaultMonitored;

    /** A filter over the given rules, in order. */
    public ThreadFilter(List<Rule> rules) {
        this.rules = List.copyOf(rules);
        this.defaultMonitored = this.rules.stream().noneMatch(Rule::include);
    }

    /** The rules, top to bottom. */
    public List<Rule> rules() {
        return rules;
    }

    /** True when every thread is monitored (no rules). */
    public boolean acceptsAll() {
        return rules.isEmpty();
    }

    /** True when a thread with this name is monitored. */
    public boolean monitors(String threadName) {
        for (Rule r : rules) {
            if (r.glob().matches(threadName)) {
                return r.include();
            }
        }
        return defaultMonitored;
    }
}
