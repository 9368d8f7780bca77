package io.sonde.agent.jmx;

import io.sonde.agent.instrument.ProbeCatalog;
import io.sonde.api.live.ProbeSwitch;
import io.sonde.core.control.LoopbackConnector;
import io.sonde.core.control.ProbeControlMBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * Implementation of {@link ProbeControlMBean} over the agent's probe catalog. Clients reach it with
 * {@link io.sonde.core.control.ProbeControlClient} (or any JMX console), and observers of the live
 * layer's observe endpoint through the same switch ({@link ProbeSwitch}: PROBES_ON / PROBES_OFF).
 */
public final class ProbesControl implements ProbeControlMBean, ProbeSwitch {

    private final ProbeCatalog catalog;
    private final IntSupplier instrumentedClasses;
    private final Supplier<String[]> counters;
    private final List<String> configErrors;
    private final String status;
    private int switches; // guarded by this: run-time switches made through this MBean
    private String lastSwitch;

    public ProbesControl(
            ProbeCatalog catalog,
            IntSupplier instrumentedClasses,
            Supplier<String[]> counters,
            List<String> configErrors,
            String status) {
        this.catalog = catalog;
        this.instrumentedClasses = instrumentedClasses;
        this.counters = counters;
        this.configErrors = List.copyOf(configErrors);
        this.status = status;
    }

    /**
     * Registers the MBean in the platform MBean server, replacing one of an earlier agent, and
     * announces it to local clients (see {@link LoopbackConnector}).
     *
     * @param agentJar the agent jar, which a client loads again to start the loopback connector;
     *     null when run from classes (tests): then only in-process and JDK connectors reach the MBean
     */
    public void register(String agentJar) throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName(OBJECT_NAME);
        if (server.isRegistered(name)) {
            server.unregisterMBean(name);
        }
        server.registerMBean(new StandardMBean(this, ProbeControlMBean.class), name);
        if (agentJar != null) {
            System.setProperty(LoopbackConnector.AGENT_PROPERTY, agentJar);
        }
    }

    @Override
    public String[] list() {
        return listMatching("*");
    }

    @Override
    public String[] listMatching(String pattern) {
        if (catalog == null) {
            return new String[0];
        }
        return catalog.matching(pattern).stream()
                .map(p -> (catalog.isEnabled(p.id()) ? "on  " : "off ") + p.id() + " " + p.name() + " " + p.signature())
                .toArray(String[]::new);
    }

    /**
     * One page of the probes matching {@code pattern} for an observer's PROBE_LIST: on or off, and
     * who set that state (the last switch rule whose pattern matches the probe's name: the agent's
     * options, the budget or an operator; none: as configured). The page is cut from one snapshot of the
     * catalogue; only the page's probes are looked up in the switch rules.
     */
    @Override
    public Page list(String pattern, int offset, int limit) {
        if (catalog == null) {
            return new Page(0, offset, List.of());
        }
        List<ProbeCatalog.Probe> matching = catalog.matching(pattern);
        int from = Math.min(offset, matching.size());
        int to = (int) Math.min(matching.size(), (long) from + limit);
        List<Probe> page = new ArrayList<>(to - from);
        for (ProbeCatalog.Probe p : matching.subList(from, to)) {
            ProbeCatalog.SwitchRule rule = catalog.lastSwitch(p.name());
            Origin origin = rule == null ? Origin.CONFIGURED : switch (rule.origin()) {
                case CONFIGURATION -> Origin.CONFIGURED;
                case BUDGET -> Origin.BUDGET;
                case OPERATOR -> Origin.SWITCHED;
            };
            page.add(new Probe(p.id(), p.name(), p.signature(), catalog.isEnabled(p.id()), origin, rule == null ? "" : rule.why()));
        }
        return new Page(matching.size(), offset, page);
    }

    @Override
    public int enable(String pattern) {
        return switchMatching(pattern, true);
    }

    @Override
    public int disable(String pattern) {
        return switchMatching(pattern, false);
    }

    private synchronized int switchMatching(String pattern, boolean on) {
        if (catalog == null) {
            return 0;
        }
        int changed = catalog.switchMatching(pattern, on);
        switches++;
        lastSwitch = (on ? "enable " : "disable ") + pattern + " (" + changed + " probe(s) changed)";
        return changed;
    }

    @Override
    public int getProbeCount() {
        return catalog == null ? 0 : catalog.size();
    }

    @Override
    public int getEnabledProbeCount() {
        if (catalog == null) {
            return 0;
        }
        return (int) catalog.matching("*").stream().filter(p -> catalog.isEnabled(p.id())).count();
    }

    @Override
    public int getInstrumentedClassCount() {
        return instrumentedClasses.getAsInt();
    }

    @Override
    public String[] getCounters() {
        return counters.get();
    }

    @Override
    public String[] getConfigErrors() {
        return configErrors.toArray(new String[0]);
    }

    /** The agent's status line, and the run-time switches made over JMX (the other origin of probe states). */
    @Override
    public synchronized String getStatus() {
        return switches == 0 ? status : status + "; " + switches + " switch(es) over JMX, last: " + lastSwitch;
    }
}
