package io.sonde.agent.sample;

import io.sonde.core.control.ProbeControlMBean;
import java.lang.management.ManagementFactory;
import javax.management.JMX;
import javax.management.ObjectName;

/**
 * The application of the budget test, in a JVM of its own under the agent: a cold, important
 * method ({@link Work#important}, about a millisecond of work per call) that calls a hot, tiny one
 * ({@link Hot#tiny}) 20,000 times per call and a small one ({@link Cold#rare}) once. Runs for the
 * seconds given as the first argument (after sleeping the seconds of the second, if given), then prints the agent's probe list and counters from its
 * MBean (in-process) as {@code probe <line>} and {@code counter <line>}, then {@code done}.
 */
public final class BudgetApp {

    private BudgetApp() {}

    /** The monitored classes (the test includes {@code io.sonde.agent.sample.BudgetApp$*}). */
    public static final class Work {
        private Work() {}

        static long important(long seed) {
            long s = seed;
            for (int i = 0; i < 20_000; i++) {
                s = s * 6364136223846793005L + Hot.tiny(i); // some work the JIT cannot drop
                s ^= s >>> 29;
            }
            return Cold.rare(s);
        }
    }

    public static final class Hot {
        private Hot() {}

        static int tiny(int i) {
            return i & 7;
        }
    }

    public static final class Cold {
        private Cold() {}

        static long rare(long s) {
            return s ^ 0x5DEECE66DL;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 1) Thread.sleep((long) (Double.parseDouble(args[1]) * 1000)); // a quiet start first
        long end = System.nanoTime() + (long) (Double.parseDouble(args[0]) * 1e9);
        long s = 1;
        long calls = 0;
        while (System.nanoTime() - end < 0) {
            s = Work.important(s);
            calls++;
        }
        System.out.println("calls " + calls + " sink " + s);
        printProbesAndCounters(probes());
    }

    /** The agent's MBean, in-process. */
    static ProbeControlMBean probes() throws javax.management.MalformedObjectNameException {
        return JMX.newMBeanProxy(ManagementFactory.getPlatformMBeanServer(),
                new ObjectName(ProbeControlMBean.OBJECT_NAME), ProbeControlMBean.class);
    }

    /** Prints {@code probe <line>} per probe, {@code counter <line>} per counter, then {@code done}. */
    static void printProbesAndCounters(ProbeControlMBean probes) {
        for (String line : probes.list()) System.out.println("probe " + line);
        for (String line : probes.getCounters()) System.out.println("counter " + line);
        System.out.println("done");
        System.out.flush();
    }
}
