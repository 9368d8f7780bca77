package io.sonde.agent.sample;

import io.sonde.core.control.ProbeControlMBean;

/**
 * The application of the budget's re-weaving test, in a JVM of its own under the agent: a CPU-bound
 * step ({@link Root#step}, about a millisecond of plain arithmetic) that calls six tiny hot
 * methods ({@link Tiny}) a known number of times each ({@link #CALLS}), a tiny pinned one
 * ({@link Pinned#keep}, {@link #PINNED_CALLS} times) and a cold one ({@link Cold#once}) once. Every
 * count is fixed, so the records of one step say exactly which probes were on.
 *
 * <p>Runs steps for the seconds given as the first argument and prints {@code phase1 STEPS} and the agent's counters as {@code settled <line>}; then
 * switches {@code Tiny.t0} on again through the MBean (an operator's switch: the budget had taken it
 * out of the code), calls {@link Cold#marker} once and runs {@link #AFTER_ENABLE} more steps; then
 * prints the agent's probe list and counters as {@code probe <line>} and {@code counter <line>},
 * then {@code done}.
 */
public final class BudgetManyApp {
    /** Calls per step of {@code Tiny.t0} .. {@code Tiny.t5}. */
    public static final int[] CALLS = {4000, 3000, 2000, 1000, 500, 250};
    /** Calls per step of {@link Pinned#keep}. */
    public static final int PINNED_CALLS = 20;
    /** Steps after the operator's switch. */
    public static final int AFTER_ENABLE = 20;

    private BudgetManyApp() {}

    public static final class Root {
        private Root() {}

        static long step(long seed) {
            long s = seed;
            for (int i = 0; i < 1_000_000; i++) { // the step's own work, unmonitored
                s = s * 6364136223846793005L + i;
                s ^= s >>> 29;
            }
            for (int i = 0; i < CALLS[0]; i++) s += Tiny.t0(i);
            for (int i = 0; i < CALLS[1]; i++) s += Tiny.t1(i);
            for (int i = 0; i < CALLS[2]; i++) s += Tiny.t2(i);
            for (int i = 0; i < CALLS[3]; i++) s += Tiny.t3(i);
            for (int i = 0; i < CALLS[4]; i++) s += Tiny.t4(i);
            for (int i = 0; i < CALLS[5]; i++) s += Tiny.t5(i);
            for (int i = 0; i < PINNED_CALLS; i++) s += Pinned.keep(i);
            return Cold.once(s);
        }
    }

    public static final class Tiny {
        private Tiny() {}

        static int t0(int i) {
            return i & 1;
        }

        static int t1(int i) {
            return i & 3;
        }

        static int t2(int i) {
            return i & 5;
        }

        static int t3(int i) {
            return i & 7;
        }

        static int t4(int i) {
            return i & 9;
        }

        static int t5(int i) {
            return i & 11;
        }
    }

    public static final class Pinned {
        private Pinned() {}

        static int keep(int i) {
            return i ^ 3;
        }
    }

    public static final class Cold {
        private Cold() {}

        static long once(long s) {
            return s ^ 0x5DEECE66DL;
        }

        static void marker() {
            // an ENTER that tells the test where the operator's switch happened
        }
    }

    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + (long) (Double.parseDouble(args[0]) * 1e9);
        long s = 1;
        long steps = 0;
        while (System.nanoTime() - end < 0) {
            s = Root.step(s);
            steps++;
        }
        System.out.println("phase1 " + steps + " sink " + s);
        ProbeControlMBean probes = BudgetApp.probes();
        for (String line : probes.getCounters()) System.out.println("settled " + line);
        probes.enable(Tiny.class.getName() + ".t0");
        Cold.marker();
        for (int i = 0; i < AFTER_ENABLE; i++) s = Root.step(s);
        System.out.println("sink " + s);
        BudgetApp.printProbesAndCounters(probes);
    }
}
