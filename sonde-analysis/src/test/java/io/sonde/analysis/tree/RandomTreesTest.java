package io.sonde.analysis.tree;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.ScriptedSource;
import io.sonde.analysis.correction.ProbeCost;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/**
 * Seeded random call trees on several interleaved threads: the rebuilt trees must equal the
 * generated ones node for node (operation, depth, order, inclusive and exclusive wall and CPU time),
 * and with perturbation correction every node loses exactly its nested executions' cost.
 */
class RandomTreesTest {

    /** A generated execution with its expected figures. */
    static final class Node {
        int probe;
        int depth;
        int order;
        long start;
        long end;
        long cpuStart;
        long cpuEnd;
        final List<Node> children = new ArrayList<>();

        long incl() {
            return end - start;
        }

        long excl() {
            long e = incl();
            for (Node c : children) e -= c.incl();
            return e;
        }

        long cpuExcl() {
            long e = cpuEnd - cpuStart;
            for (Node c : children) e -= c.cpuEnd - c.cpuStart;
            return e;
        }

        int descendants() {
            int d = 0;
            for (Node c : children) d += 1 + c.descendants();
            return d;
        }

        void preOrder(List<Node> out) {
            out.add(this);
            for (Node c : children) c.preOrder(out);
        }
    }

    /** Generates one trace on a thread, appending its records (as steps) to the thread's list. */
    static Node generate(Random rnd, long[] clock, long[] cpu, int depth, int[] order, List<Object[]> steps) {
        Node n = new Node();
        n.probe = 1 + rnd.nextInt(5);
        n.depth = depth;
        n.order = order[0]++;
        clock[0] += 1 + rnd.nextInt(1000);
        cpu[0] += rnd.nextInt(500);
        n.start = clock[0];
        n.cpuStart = cpu[0];
        steps.add(new Object[] {"enter", n.probe, n.start, n.cpuStart});
        int kids = depth >= 5 ? 0 : rnd.nextInt(4);
        for (int i = 0; i < kids; i++) n.children.add(generate(rnd, clock, cpu, depth + 1, order, steps));
        clock[0] += 1 + rnd.nextInt(1000);
        cpu[0] += rnd.nextInt(500);
        n.end = clock[0];
        n.cpuEnd = cpu[0];
        steps.add(new Object[] {"exit", n.probe, n.end, n.cpuEnd});
        return n;
    }

    @RepeatedTest(20)
    void rebuiltTreesEqualTheGeneratedOnes(RepetitionInfo info) {
        Random rnd = new Random(1000 + info.getCurrentRepetition());
        int threads = 1 + rnd.nextInt(4);
        ScriptedSource s = new ScriptedSource();
        for (int p = 1; p <= 5; p++) s.probe(p, "op" + p);
        List<List<Object[]>> perThread = new ArrayList<>();
        List<Node> expected = new ArrayList<>();
        List<Long> expectedTids = new ArrayList<>();
        long[][] clocks = new long[threads][1];
        long[][] cpus = new long[threads][1];
        for (int t = 0; t < threads; t++) {
            s.thread(10 + t, "t" + t);
            perThread.add(new ArrayList<>());
        }
        int traces = 1 + rnd.nextInt(6);
        // Generate every thread's traces, then interleave the threads' records in random slices.
        for (int t = 0; t < threads; t++) {
            for (int k = 0; k < traces; k++) {
                List<Object[]> steps = perThread.get(t);
                steps.add(new Object[] {"trace", (long) (t * 100 + k)});
                expected.add(generate(rnd, clocks[t], cpus[t], 0, new int[1], steps));
                expectedTids.add(10L + t);
            }
        }
        int[] pos = new int[threads];
        boolean more = true;
        while (more) {
            more = false;
            for (int t = 0; t < threads; t++) {
                List<Object[]> steps = perThread.get(t);
                int slice = 1 + rnd.nextInt(7);
                for (int i = 0; i < slice && pos[t] < steps.size(); i++) {
                    Object[] st = steps.get(pos[t]++);
                    long tid = 10 + t;
                    switch ((String) st[0]) {
                        case "trace" -> s.trace(tid, (Long) st[1]);
                        case "enter" -> s.enter(tid, (Integer) st[1], (Long) st[2], (Long) st[3]);
                        default -> s.exit(tid, (Integer) st[1], (Long) st[2], (Long) st[3]);
                    }
                }
                if (pos[t] < steps.size()) more = true;
            }
        }

        AnalysisOptions o = new AnalysisOptions();
        o.keepTrees = Integer.MAX_VALUE;
        AnalysisResult r = Analyzer.run(s, o);
        assertThat(r.trees()).hasSize(expected.size());
        List<String> want = new ArrayList<>();
        for (Node root : expected) want.add(describe(root, 0, 0));
        List<String> got = new ArrayList<>();
        for (TraceTree t : r.trees()) got.add(describe(t));
        assertThat(got).containsExactlyInAnyOrderElementsOf(want);

        long cost = 7;
        long cpuCost = 3;
        o.probeCost = new ProbeCost(cost, cpuCost);
        AnalysisResult corrected = Analyzer.run(s, o);
        List<String> wantCorrected = new ArrayList<>();
        for (Node root : expected) wantCorrected.add(describe(root, cost, cpuCost));
        List<String> gotCorrected = new ArrayList<>();
        for (TraceTree t : corrected.trees()) gotCorrected.add(describe(t));
        assertThat(gotCorrected).containsExactlyInAnyOrderElementsOf(wantCorrected);
    }

    static String describe(Node root, long cost, long cpuCost) {
        List<Node> nodes = new ArrayList<>();
        root.preOrder(nodes);
        StringBuilder b = new StringBuilder();
        for (Node n : nodes) {
            long d = n.descendants();
            long k = n.children.size();
            b.append(n.depth).append(" op").append(n.probe).append(" #").append(n.order).append(' ')
                    .append(Math.max(0, n.incl() - d * cost)).append('/').append(Math.max(0, n.excl() - k * cost)).append(" cpu ")
                    .append(Math.max(0, n.cpuEnd - n.cpuStart - d * cpuCost)).append('/').append(Math.max(0, n.cpuExcl() - k * cpuCost)).append('\n');
        }
        return b.toString();
    }

    static String describe(TraceTree t) {
        StringBuilder b = new StringBuilder();
        for (TreeNode n : t.nodes()) {
            b.append(n.depth()).append(' ').append(n.operation().name()).append(" #").append(n.orderIndex()).append(' ')
                    .append(n.wallInclusive()).append('/').append(n.wallExclusive()).append(" cpu ").append(n.cpuInclusive()).append('/')
                    .append(n.cpuExclusive()).append('\n');
        }
        return b.toString();
    }
}
