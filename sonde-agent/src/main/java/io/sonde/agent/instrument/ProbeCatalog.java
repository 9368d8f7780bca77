package io.sonde.agent.instrument;

import io.sonde.agent.pattern.Glob;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The method probes the agent has woven: one per (method name, signature), with an int id from
 * the core, plus the run-time switch rules given through JMX so that classes loaded later get
 * probes in the state the operator asked for.
 *
 * <p>Touched when classes are transformed and when an operator switches probes, never on the
 * hot path (that only passes the int id).
 */
public final class ProbeCatalog {

    /** One woven probe. {@code name} is {@code <binary class name>.<method name>}. */
    public record Probe(int id, String name, String signature) {}

    /** The core operations the catalog needs; implemented over the core's probe registry. */
    public interface Registry {
        /** Registers (or looks up) the probe and returns its id. */
        int register(String name, String signature);

        /** Switches the probe on or off. */
        void setEnabled(int id, boolean enabled);

        /** True when the probe is on. */
        boolean isEnabled(int id);
    }

    /**
     * A switch by pattern, kept so that probes woven later follow it and so that a listing can say
     * who set a probe's state ({@code origin}) and why, in words.
     */
    public record SwitchRule(Glob glob, String pattern, boolean enabled, Origin origin, String why) {
        /**
         * True when the rule applies to the probe name. A pattern without wildcards (the budget's,
         * one per probe, hundreds on a library) is compared as a string, not run as an automaton.
         */
        public boolean matches(String name) {
            return pattern.indexOf('*') < 0 && pattern.indexOf('?') < 0 ? pattern.equals(name) : glob.matches(name);
        }
    }

    /** Who made a switch rule. */
    public enum Origin {
        /** The agent's options at start ({@code probes=off}). */
        CONFIGURATION,
        /** An operator at run time: the MBean, or an observer through the observe endpoint. */
        OPERATOR,
        /** The overhead budget. */
        BUDGET
    }

    private final Registry registry;
    private final Map<String, Probe> byKey = new ConcurrentHashMap<>();
    // guarded by this; not copy-on-write: weaving a library adds thousands of probes one by one
    private final List<Probe> inOrder = new ArrayList<>();
    private final List<SwitchRule> switchRules = new CopyOnWriteArrayList<>();
    /** Probe names whose methods the weaver leaves untouched (taken out of the code by the budget). */
    private final Set<String> unwoven = ConcurrentHashMap.newKeySet();
    private volatile Reweaver reweaver = classNames -> 0;
    private volatile LeaveOut leaveOut;

    /** Who may leave a method's probe out of the code when it is first woven, knowing its size (the overhead budget). */
    public interface LeaveOut {
        /**
         * True to leave the probe of this method out of the code; asked once per weaving of a
         * selected method that is not already out.
         *
         * @param name the probe name {@code <class>.<method>}
         * @param codeBytes the length of the method's bytecode
         */
        boolean leavesOut(String name, int codeBytes);
    }

    /**
     * Re-transforms loaded classes so that their code follows {@link #woven}: the weaver's side of
     * taking probes out of the code and putting them back.
     */
    public interface Reweaver {
        /** Re-transforms the loaded classes of these binary names (every loader), in one batch; returns how many. */
        int reweave(Set<String> classNames);
    }

    public ProbeCatalog(Registry registry) {
        this.registry = registry;
    }

    /** Who re-transforms classes when probes leave or re-enter the code (the instrumenter sets itself). */
    public void onReweave(Reweaver r) {
        this.reweaver = r;
    }

    /**
     * False when the method's probe was taken out of the code ({@link #removeFromCode}): the
     * weaver then copies the method unchanged. Asked once per selected method while weaving.
     */
    public boolean woven(String name) {
        return unwoven.isEmpty() || !unwoven.contains(name);
    }

    /** Sets who may leave probes out when they are first woven ({@link #woven(String, int)}). */
    public void onFirstWeave(LeaveOut l) {
        this.leaveOut = l;
    }

    /**
     * As {@link #woven(String)}, and asks the {@link #onFirstWeave} hook, which knows the method's
     * size: a probe it leaves out is out of the code as if taken out ({@link #removeFromCode}),
     * and an operator's switch on puts it back.
     */
    public boolean woven(String name, int codeBytes) {
        if (!woven(name)) return false;
        LeaveOut l = leaveOut;
        if (l != null && l.leavesOut(name, codeBytes)) {
            unwoven.add(name);
            return false;
        }
        return true;
    }

    /**
     * Takes the probes of these names (all overloads) out of the code: the weaver leaves their
     * methods untouched from now on, and the loaded classes that hold them are re-transformed in
     * one batch. The probes stay registered (their ids, their switch state and why) so that a
     * listing still shows them, and an operator's switch on puts them back
     * ({@link #switchMatching(String, boolean, Origin, String)}). Call after switching them off,
     * so that no record is written between the decision and the re-transformation.
     *
     * @return the number of classes re-transformed
     */
    public int removeFromCode(Collection<String> names) {
        Set<String> classes = new TreeSet<>();
        for (String name : names) {
            if (unwoven.add(name)) {
                classes.add(classOf(name));
            }
        }
        return classes.isEmpty() ? 0 : reweaver.reweave(classes);
    }

    /**
     * Leaves the probes of these names out of the code of every class woven from now on, without
     * re-transforming any: for a start that knows them before the classes load (the budget's
     * state from an earlier run). As with {@link #removeFromCode}, an operator's switch on puts
     * them back.
     */
    public void leaveOutOfCode(Collection<String> names) {
        unwoven.addAll(names);
    }

    /** True when some probe was taken out of the code ({@link #removeFromCode}) and is not back. */
    public boolean anyRemovedFromCode() {
        return !unwoven.isEmpty();
    }

    /** The names taken out of the code, sorted. */
    public Set<String> removedFromCode() {
        return new TreeSet<>(unwoven);
    }

    private static String classOf(String probeName) {
        return probeName.substring(0, probeName.lastIndexOf('.'));
    }

    /**
     * Returns the id of the probe for this method, registering it the first time. A probe made
     * after a run-time switch gets the state of the last switch rule matching its name.
     */
    public int probeFor(String name, String signature) {
        String key = name + signature;
        Probe existing = byKey.get(key);
        if (existing != null) {
            return existing.id();
        }
        synchronized (this) {
            existing = byKey.get(key);
            if (existing != null) {
                return existing.id();
            }
            int id = registry.register(name, signature);
            Probe p = new Probe(id, name, signature);
            for (int i = switchRules.size() - 1; i >= 0; i--) {
                SwitchRule r = switchRules.get(i);
                if (r.matches(name)) {
                    registry.setEnabled(id, r.enabled());
                    break;
                }
            }
            byKey.put(key, p);
            inOrder.add(p);
            return id;
        }
    }

    /** Switches every probe whose name matches (an operator's switch); returns how many changed state. */
    public int switchMatching(String pattern, boolean enabled) {
        return switchMatching(pattern, enabled, Origin.OPERATOR,
                "switched " + (enabled ? "on" : "off") + " at run time by pattern '" + pattern + "'");
    }

    /**
     * Switches every probe whose name matches; returns how many changed state. {@code origin} and
     * {@code why} are what a probe listing shows for the probes whose state this rule set.
     */
    public int switchMatching(String pattern, boolean enabled, Origin origin, String why) {
        Glob g = Glob.of(pattern);
        SwitchRule rule = new SwitchRule(g, pattern, enabled, origin, why);
        int changed;
        synchronized (this) {
            switchRules.add(rule);
            changed = 0;
            for (Probe p : inOrder) {
                if (rule.matches(p.name()) && registry.isEnabled(p.id()) != enabled) {
                    registry.setEnabled(p.id(), enabled);
                    changed++;
                }
            }
        }
        if (enabled && !unwoven.isEmpty()) {
            // switched on again: what the budget took out of the code goes back in (outside the
            // lock: the re-transformation registers probes, and classes load meanwhile)
            Set<String> classes = new TreeSet<>();
            for (String name : unwoven) {
                if (rule.matches(name) && unwoven.remove(name)) {
                    classes.add(classOf(name));
                }
            }
            if (!classes.isEmpty()) {
                reweaver.reweave(classes);
            }
        }
        return changed;
    }

    /**
     * Switches off the probes of these exact names (all overloads), each with its own reason: one
     * pass over the catalogue for the whole batch (the budget switches hundreds at once on a
     * library, and class loading waits for this lock). Returns how many probes changed state.
     *
     * @param why the reason per probe name, in the order the rules are to be added
     */
    public synchronized int switchOff(Map<String, String> why, Origin origin) {
        for (Map.Entry<String, String> e : why.entrySet()) {
            switchRules.add(new SwitchRule(Glob.of(e.getKey()), e.getKey(), false, origin, e.getValue()));
        }
        int changed = 0;
        for (Probe p : inOrder) {
            if (why.containsKey(p.name()) && registry.isEnabled(p.id())) {
                registry.setEnabled(p.id(), false);
                changed++;
            }
        }
        return changed;
    }

    /** The probes whose names match the pattern, in registration order. */
    public synchronized List<Probe> matching(String pattern) {
        Glob g = Glob.of(pattern);
        List<Probe> out = new ArrayList<>();
        for (Probe p : inOrder) {
            if (g.matches(p.name())) {
                out.add(p);
            }
        }
        return out;
    }

    /** The last run-time switch whose pattern matches {@code name} (what set its state), or null: as configured. */
    public SwitchRule lastSwitch(String name) {
        for (int i = switchRules.size() - 1; i >= 0; i--) {
            SwitchRule r = switchRules.get(i);
            if (r.matches(name)) return r;
        }
        return null;
    }

    /** True when the probe is on. */
    public boolean isEnabled(int id) {
        return registry.isEnabled(id);
    }

    /** Number of probes woven so far. */
    public synchronized int size() {
        return inOrder.size();
    }
}
