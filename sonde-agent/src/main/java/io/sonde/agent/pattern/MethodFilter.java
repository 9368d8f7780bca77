package io.sonde.agent.pattern;

import java.util.List;

/**
 * Decides which methods get a probe. Each rule's pattern is matched against the method's full
 * name {@code <binary class name>.<method name>} (for example {@code com.acme.Shop$Cart.total});
 * rules apply top to bottom and the first match decides. A method no rule matches is not
 * monitored, so an empty filter monitors nothing (as {@code exclude_method * *} in the thesis).
 */
public final class MethodFilter {

    private final List<Rule> rules;

    /** A filter over the given rules, in order. */
    public MethodFilter(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** The rules, top to bottom. */
    public List<Rule> rules() {
        return rules;
    }

    /** True when no rule includes anything: the agent then instruments nothing. */
    public boolean selectsNothing() {
        return rules.stream().noneMatch(Rule::include);
    }

    /** True when the method {@code className.methodName} is selected. */
    public boolean selects(String className, String methodName) {
        String full = className + '.' + methodName;
        for (Rule r : rules) {
            if (r.glob().matches(full)) {
                return r.include();
            }
        }
        return false;
    }

    /**
     * True when some method of the class could be selected: a cheap test made before the class's
     * methods are examined. Conservative: it may say yes for a class of which no method is selected.
     */
    public boolean maySelectClass(String className) {
        String prefix = className + '.';
        for (Rule r : rules) {
            if (r.include() && r.glob().couldMatchWithPrefix(prefix)) {
                return true;
            }
        }
        return false;
    }
}
