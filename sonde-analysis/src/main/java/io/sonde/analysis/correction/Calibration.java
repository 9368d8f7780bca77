package io.sonde.analysis.correction;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * Measures what one monitored execution's probes cost the code around it: the same loop of
 * {@code calls} executions runs with the probes and without, and the difference per execution
 * (wall clock and thread CPU time) is the probe-pair cost. Rounds alternate between the two loops
 * and the median of the per-round differences is taken, which keeps outliers (GC, JIT, other
 * processes) out. The caller supplies both loops, so this class needs no probe runtime of its own
 * ({@code sonde analyze --calibrate} runs the real Sonde pipeline in-process).
 */
public final class Calibration {
    private Calibration() {}

    /** One loop of {@code calls} executions; returns something derived from the work (kept from the optimiser). */
    @FunctionalInterface
    public interface Loop {
        long run(int calls);
    }

    /** The measured figures of a calibration. */
    public record Result(ProbeCost cost, double wallNanosPerPair, double cpuNanosPerPair, int rounds, int callsPerRound) {}

    /**
     * Runs the calibration.
     *
     * @param monitored loop whose every execution passes through an ENTER and an EXIT probe
     * @param plain the same loop without probes
     * @param callsPerRound executions per loop run
     * @param rounds measured rounds (after as many warm-up rounds)
     */
    public static Result measure(Loop monitored, Loop plain, int callsPerRound, int rounds) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        boolean cpu = mx.isCurrentThreadCpuTimeSupported();
        double[] wall = new double[rounds];
        double[] cpuDiff = new double[rounds];
        long sink = 0;
        for (int warm = 0; warm < rounds; warm++) {
            sink += monitored.run(callsPerRound) + plain.run(callsPerRound);
        }
        for (int r = 0; r < rounds; r++) {
            long c0 = cpu ? mx.getCurrentThreadCpuTime() : 0;
            long t0 = System.nanoTime();
            sink += monitored.run(callsPerRound);
            long t1 = System.nanoTime();
            long c1 = cpu ? mx.getCurrentThreadCpuTime() : 0;
            sink += plain.run(callsPerRound);
            long t2 = System.nanoTime();
            long c2 = cpu ? mx.getCurrentThreadCpuTime() : 0;
            wall[r] = ((t1 - t0) - (t2 - t1)) / (double) callsPerRound;
            cpuDiff[r] = ((c1 - c0) - (c2 - c1)) / (double) callsPerRound;
        }
        if (sink == 42) System.out.print(""); // keeps the loops' results alive
        double w = Math.max(0, median(wall));
        double c = cpu ? Math.max(0, median(cpuDiff)) : 0;
        return new Result(new ProbeCost(Math.round(w), Math.round(c)), w, c, rounds, callsPerRound);
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
