package io.sonde.agent;

import io.sonde.agent.budget.BudgetController;
import io.sonde.agent.config.AgentOptions;
import io.sonde.agent.config.OptionsParser;
import io.sonde.agent.instrument.Instrumenter;
import io.sonde.agent.instrument.ProbeCatalog;
import io.sonde.agent.instrument.WeaveStats;
import io.sonde.agent.instrument.WeaverCompilation;
import io.sonde.agent.jmx.ProbesControl;
import io.sonde.agent.propagation.ExecutorInstrumenter;
import io.sonde.api.live.ProbeSwitch;
import io.sonde.core.control.AgentState;
import io.sonde.core.control.LoopbackConnector;
import io.sonde.core.control.ProbeControlMBean;
import java.lang.instrument.Instrumentation;
import net.bytebuddy.dynamic.ClassFileLocator;
import java.util.List;

/**
 * Starts the agent inside the monitored JVM: parses the options, starts the core (writer and
 * its thread), weaves probes, wires executor propagation and registers the MBean. Loaded from
 * the bootstrap class path by {@link SondeAgent}.
 *
 * <p>The application never fails because of Sonde: bad options leave the application running
 * unmonitored, with one line per problem on stderr (and in the MBean's {@code ConfigErrors}).
 */
public final class AgentRuntime {

    private static volatile boolean started;

    private AgentRuntime() {}

    /**
     * Starts the agent once per JVM. A second load with other options is refused (an agent's
     * options cannot change); one with bad options leaves the JVM free for a corrected attach.
     *
     * <p>When attached ({@code dynamic}), the weaving of the classes already loaded runs on a
     * thread of its own, so that {@code agentmain} returns at once and {@code sonde attach} can
     * follow the progress through {@link AgentState#WEAVING_PROPERTY} (the JVM's attach listener
     * serves one request at a time: while {@code agentmain} runs, nobody can read the progress).
     *
     * @param options the agent options string
     * @param inst the JVM's instrumentation
     * @param dynamic true when attached to a running JVM
     * @param agentJar path of the agent jar, or null when run from classes
     */
    public static void start(String options, Instrumentation inst, boolean dynamic, String agentJar) {
        long now = System.nanoTime();
        start(options, inst, dynamic, agentJar, now, now);
    }

    /**
     * {@link #start(String, Instrumentation, boolean, String)} as {@link SondeAgent} calls it, with
     * the instants (monotonic clock) the JVM called the agent and the agent jar was on the bootstrap
     * class path: the first phases of {@link StartPhases}.
     */
    public static synchronized void start(String options, Instrumentation inst, boolean dynamic, String agentJar,
            long enteredNanos, long appendedNanos) {
        StartPhases phases = new StartPhases(enteredNanos);
        phases.end("jar", appendedNanos); // the agent jar opened and appended to the bootstrap class path
        phases.end("runtime.load"); // this class loaded and initialised
        if (LoopbackConnector.START_REQUEST.equals(options)) {
            startConnector();
            return;
        }
        // a client (sonde attach) that added the weaver's compiler directive itself says so in front
        boolean directiveAdded = AgentState.hasDirectiveMark(options);
        options = AgentState.withoutDirectiveMark(options);
        String given = options == null ? "" : options;
        if (started) {
            refuseSecondStart(given);
            return;
        }
        long loadedAt = enteredNanos;
        if (dynamic) {
            System.clearProperty(AgentState.STATUS_PROPERTY); // an earlier attach's: not this one's
            publishWeaving(new AgentState.Weaving(false, 0, 0, 0));
        }
        // Byte Buddy is relocated, so is the name of its property; safe mode avoids sun.misc.Unsafe
        // (a warning on JDK 24+). Set before the first Byte Buddy class initialises.
        if (System.getProperty("io.sonde.agent.shaded.bytebuddy.safe") == null) {
            System.setProperty("io.sonde.agent.shaded.bytebuddy.safe", "true");
        }
        OptionsParser.Result parsed = OptionsParser.parse(options, dynamic ? OptionsParser.ATTACH : OptionsParser.INLINE);
        phases.end("options");
        List<String> errors = parsed.errors();
        if (errors.isEmpty()) {
            errors = CoreBinding.start(parsed.options());
            phases.end("pipeline");
        }
        if (!errors.isEmpty()) {
            for (String e : errors) {
                AgentLog.info(e);
            }
            AgentLog.info("bad options: the application runs unmonitored");
            ProbesControl control = control(null, null, null, errors, "not monitoring: bad options", null, phases);
            register(control, parsed.options(), agentJar);
            if (dynamic) {
                publishStatus(control); // before "done": read after it
                publishWeaving(new AgentState.Weaving(true, 0, 0, millisSince(loadedAt)));
            }
            return;
        }
        started = true;
        System.setProperty(AgentState.OPTIONS_PROPERTY, given);
        System.setProperty(AgentState.ORIGIN_PROPERTY, dynamic ? AgentState.ATTACH : AgentState.JAVAAGENT);
        AgentOptions o = parsed.options();
        ProbeCatalog catalog = new ProbeCatalog(CoreBinding.registry());
        if (!o.probesOn()) {
            // a switch rule: every probe woven from now on starts off
            catalog.switchMatching("*", false, ProbeCatalog.Origin.CONFIGURATION, "off by the agent's options (probes=off)");
        }
        // Byte Buddy's (it reads the advice classes): not even loaded with the ASM weaver
        ClassFileLocator agentClasses = o.weaver() == AgentOptions.Weaver.BYTE_BUDDY ? agentClasses(agentJar) : null;
        WeaveStats stats = new WeaveStats(o.weaveStats());
        if (stats.on()) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stats.report().forEach(AgentLog::info), "sonde-weave-stats"));
        }
        Instrumenter instrumenter = new Instrumenter(
                inst, o.methods(), catalog, o.verbose(), agentClasses, o.executors(), stats, o.weaver());
        instrumenter.onPhase(phases::end);
        if (dynamic) {
            instrumenter.onProgress((woven, total) -> publishWeaving(new AgentState.Weaving(false, woven, total, 0)));
        }
        phases.end("setup");
        BudgetController budget = startBudget(catalog, stats);
        CoreBinding.startObserve();
        CoreBinding.startPrometheus();
        phases.end("endpoints");
        String status = "monitoring " + o.methods().rules().size() + " method rule(s) from "
                + String.join(", ", o.sources()) + (dynamic ? ", loaded by attach" : ", loaded by -javaagent")
                + (o.probesOn() ? "" : ", probes started off");
        Runnable weave = () -> {
            // the weaver ("candidates", "retransform"; Byte Buddy only with weaver=bytebuddy), the
            // executors and the MBean, one after the other: on a thread of their own beside the
            // weaver they made an attach slower on two cores (docs/benchmarks.md, "Attach")
            // an attach with the ASM weaver: C2 kept off the weaver while it re-transforms
            // (instrument.WeaverCompilation; docs/benchmarks.md, "Attach"). Added by the client
            // (sonde attach) through its attach connection where it could; else here, through the
            // platform MBean server, so only with jmx=on, which starts that server anyway.
            boolean c2Off = dynamic && !directiveAdded && o.jmx() && o.weaver() == AgentOptions.Weaver.ASM
                    && !o.methods().selectsNothing();
            try (WeaverCompilation c = c2Off ? WeaverCompilation.c2Off() : null) {
                if (c2Off) {
                    phases.end("compiler");
                }
                if (instrumenter.installWeaver()) {
                    instrumenter.installByteBuddy();
                }
            } catch (RuntimeException | LinkageError e) {
                AgentLog.info("could not install the instrumentation, the application runs unmonitored: " + e);
            }
            if (o.weaver() == AgentOptions.Weaver.BYTE_BUDDY) {
                phases.end("bytebuddy");
            }
            if (o.executors() && !o.methods().selectsNothing()) { // no probes, no traces to carry
                try {
                    ExecutorInstrumenter.install(inst);
                } catch (RuntimeException | LinkageError e) {
                    AgentLog.info("trace context will not follow executor tasks: " + e);
                }
                phases.end("executors");
            }
            ProbesControl control = control(catalog, instrumenter, stats, List.of(), status, budget, phases);
            if (o.verbose()) {
                AgentLog.info(status + "; " + instrumenter.transformedClasses() + " class(es) instrumented at start");
            }
            if (dynamic) {
                // "done" before the MBean: registering it (mostly the platform MBean server's first
                // start) follows at once on this thread, and a client that needs it waits for it
                // (AgentState.MBEAN_PENDING_PROPERTY); the status needs no MBean
                if (o.jmx()) {
                    System.setProperty(AgentState.MBEAN_PENDING_PROPERTY, "true");
                }
                int n = instrumenter.loadedClassesWoven();
                System.setProperty(AgentState.PHASES_PROPERTY, phases.summary()); // before "done": read after it
                publishStatus(control);
                publishWeaving(new AgentState.Weaving(true, n, Math.max(n, instrumenter.retransformTotal()),
                        millisSince(loadedAt)));
            }
            try {
                register(control, o, agentJar);
                phases.end("mbean");
            } finally {
                System.clearProperty(AgentState.MBEAN_PENDING_PROPERTY);
            }
            if (dynamic && stats.on()) {
                stats.report().forEach(AgentLog::info); // the attach's weaving; again at exit
            }
        };
        if (dynamic) {
            Thread weaver = new Thread(weave, "sonde-attach-weaver");
            weaver.setDaemon(true);
            weaver.start();
        } else {
            weave.run();
        }
    }

    /** A load after the agent started: nothing to do with the same options, refused with others. */
    private static void refuseSecondStart(String given) {
        String running = System.getProperty(AgentState.OPTIONS_PROPERTY, "");
        if (running.equals(given)) {
            AgentLog.info("already running in this JVM with these options; nothing to do");
            return;
        }
        AgentLog.info("already running in this JVM (loaded by " + System.getProperty(AgentState.ORIGIN_PROPERTY)
                + " with options '" + running + "'): new options '" + given + "' refused; switch probes with "
                + "`sonde probes` or JMX, or restart the JVM with the new options");
    }

    private static void publishWeaving(AgentState.Weaving w) {
        System.setProperty(AgentState.WEAVING_PROPERTY, w.format());
    }

    /**
     * The status for {@code sonde attach}, which reads it after "done" and so needs no JMX
     * connection; a failure here is logged and never keeps "done" from being published.
     */
    private static void publishStatus(ProbesControl control) {
        try {
            AgentState.Status.of(control).publish(System.getProperties());
        } catch (RuntimeException e) {
            AgentLog.info("could not publish the status for sonde attach (sonde probes status shows it): " + e);
        }
    }

    private static long millisSince(long nanoTime) {
        return (System.nanoTime() - nanoTime) / 1_000_000;
    }

    /** Class files of the agent: from the jar, else (run from classes) from this class's loader. */
    private static ClassFileLocator agentClasses(String agentJar) {
        ClassFileLocator loader = ClassFileLocator.ForClassLoader.of(AgentRuntime.class.getClassLoader());
        if (agentJar == null) {
            return loader;
        }
        try {
            return new ClassFileLocator.Compound(ClassFileLocator.ForJarFile.of(new java.io.File(agentJar)), loader);
        } catch (java.io.IOException e) {
            AgentLog.info("cannot read the agent jar " + agentJar + ": " + e.getMessage());
            return loader;
        }
    }

    /**
     * A client's request (a second load of the agent jar, see {@link LoopbackConnector}) to start
     * the loopback JMX connector; only meaningful once the MBean is registered.
     */
    private static void startConnector() {
        if (System.getProperty(LoopbackConnector.AGENT_PROPERTY) == null) {
            AgentLog.info("no MBean registered (agent not running, or jmx=off): no JMX connector started");
            return;
        }
        try {
            LoopbackConnector.startOnce();
        } catch (Exception | LinkageError e) {
            AgentLog.info("could not start the loopback JMX connector: " + e);
        }
    }

    /** The agent's control, the process's probe switch from now on; its MBean is registered by {@link #register}. */
    private static ProbesControl control(
            ProbeCatalog catalog, Instrumenter instrumenter, WeaveStats stats, List<String> errors,
            String status, BudgetController budget, StartPhases phases) {
        ProbesControl control = new ProbesControl(
                catalog,
                () -> instrumenter == null ? 0 : instrumenter.transformedClasses(),
                () -> {
                    String[] counters = concat(CoreBinding.counters(), phases.counters().toArray(new String[0]));
                    if (stats != null) {
                        counters = concat(counters, stats.counters().toArray(new String[0]));
                    }
                    return budget == null ? counters : concat(counters, budget.counters());
                },
                errors,
                status);
        ProbeSwitch.registerForProcess(control); // observers switch probes through the same switch
        return control;
    }

    /** Registers the control's MBean, unless {@code jmx=off}; a failure is one line on stderr. */
    private static void register(ProbesControl control, AgentOptions o, String agentJar) {
        if (!o.jmx()) {
            return;
        }
        try {
            control.register(agentJar);
        } catch (Exception | LinkageError e) {
            AgentLog.info("could not register the JMX MBean " + ProbeControlMBean.OBJECT_NAME + ": " + e);
        }
    }

    /** The overhead budget ({@code budget=PERCENT}), or null when off or unavailable. */
    private static BudgetController startBudget(ProbeCatalog catalog, WeaveStats stats) {
        try {
            return BudgetController.startIfConfigured(CoreBinding.pipeline(), catalog, stats);
        } catch (RuntimeException | LinkageError e) {
            AgentLog.info("the overhead budget could not start, probes stay as they are: " + e);
            return null;
        }
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
