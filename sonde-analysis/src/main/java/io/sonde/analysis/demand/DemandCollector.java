package io.sonde.analysis.demand;

import io.sonde.analysis.tree.Execution;
import io.sonde.analysis.tree.ExecutionListener;
import io.sonde.analysis.tree.Operation;
import io.sonde.analysis.tree.ThreadInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Service demands per thread group and operation: how often each operation ran in each group of
 * threads, and its mean wall time and mean CPU time. A thread belongs to the first group whose
 * pattern is found in its name; threads matching no group form the group {@value #OTHER}. With
 * no groups configured every thread is in the group {@value #ALL}.
 */
public final class DemandCollector implements ExecutionListener {
    public static final String ALL = "all";
    public static final String OTHER = "other";

    /** A named thread group. */
    public record Group(String name, Pattern threadPattern) {}

    private final List<Group> groups;
    private final Map<String, GroupDemands> byGroup = new LinkedHashMap<>();
    // Thread -> group; the pattern runs once per thread. By identity: the tree builder keeps one
    // ThreadInfo per thread, and record hash codes (agent UUID, host, name) cost on every switch.
    private final Map<ThreadInfo, GroupDemands> threadGroups = new java.util.IdentityHashMap<>();
    private ThreadInfo lastThread;
    private GroupDemands lastGroup;

    public DemandCollector(List<Group> groups) {
        this.groups = List.copyOf(groups);
        for (Group g : groups) byGroup.put(g.name(), new GroupDemands(g.name(), g.threadPattern().pattern()));
    }

    @Override
    public void onExecution(Execution e) {
        GroupDemands g;
        if (e.thread() == lastThread) {
            g = lastGroup;
        } else {
            g = threadGroups.get(e.thread());
            if (g == null) {
                g = groupOf(e.thread());
                threadGroups.put(e.thread(), g);
                g.threads.add(e.thread());
            }
            lastThread = e.thread();
            lastGroup = g;
        }
        g.add(e);
    }

    private GroupDemands groupOf(ThreadInfo t) {
        for (Group gr : groups) {
            if (gr.threadPattern().matcher(t.name()).find()) return byGroup.get(gr.name());
        }
        String name = groups.isEmpty() ? ALL : OTHER;
        return byGroup.computeIfAbsent(name, n -> new GroupDemands(n, null));
    }

    /** The groups that had at least one execution, configured ones first. */
    public List<GroupDemands> groups() {
        List<GroupDemands> out = new ArrayList<>();
        for (GroupDemands g : byGroup.values()) if (!g.inOrder.isEmpty()) out.add(g);
        return out;
    }

    /** Demands of one thread group. */
    public static final class GroupDemands {
        private final String name;
        private final String pattern;
        final Set<ThreadInfo> threads = new HashSet<>();
        // By operation index (an array, not a map: this runs once per execution).
        private OperationDemand[] byIndex = new OperationDemand[16];
        private final List<OperationDemand> inOrder = new ArrayList<>();

        GroupDemands(String name, String pattern) {
            this.name = name;
            this.pattern = pattern;
        }

        void add(Execution e) {
            int i = e.operation().index();
            if (i >= byIndex.length) byIndex = java.util.Arrays.copyOf(byIndex, Math.max(i + 1, byIndex.length * 2));
            OperationDemand d = byIndex[i];
            if (d == null) {
                d = new OperationDemand(e.operation());
                byIndex[i] = d;
                inOrder.add(d);
            }
            d.add(e);
        }

        public String name() {
            return name;
        }

        /** The thread-name pattern, or null for the implicit groups. */
        public String pattern() {
            return pattern;
        }

        public int threadCount() {
            return threads.size();
        }

        /** The operations in the order of their first completed execution. */
        public List<OperationDemand> operations() {
            return new ArrayList<>(inOrder);
        }
    }

    /** Demand of one operation in one thread group. */
    public static final class OperationDemand {
        private final Operation operation;
        private long count;
        private long roots;
        private long wallSum;
        private long wallExclusiveSum;
        private long cpuCount;
        private long cpuSum;
        private long cpuExclusiveCount;
        private long cpuExclusiveSum;
        private long firstStart = Long.MAX_VALUE;
        private long lastStart = Long.MIN_VALUE;

        OperationDemand(Operation operation) {
            this.operation = operation;
        }

        void add(Execution e) {
            count++;
            if (e.depth() == 0) roots++;
            wallSum += e.wallInclusive();
            wallExclusiveSum += e.wallExclusive();
            if (e.cpuInclusive() != Execution.UNKNOWN) {
                cpuCount++;
                cpuSum += e.cpuInclusive();
            }
            if (e.cpuExclusive() != Execution.UNKNOWN) {
                cpuExclusiveCount++;
                cpuExclusiveSum += e.cpuExclusive();
            }
            firstStart = Math.min(firstStart, e.startWallNanos());
            lastStart = Math.max(lastStart, e.startWallNanos());
        }

        public Operation operation() {
            return operation;
        }

        public long count() {
            return count;
        }

        /** Executions at call depth 0 (requests entering the thread). */
        public long roots() {
            return roots;
        }

        public double meanWallNanos() {
            return count == 0 ? 0 : (double) wallSum / count;
        }

        public double meanWallExclusiveNanos() {
            return count == 0 ? 0 : (double) wallExclusiveSum / count;
        }

        /** Mean inclusive CPU time, or -1 when no execution carried CPU time. */
        public double meanCpuNanos() {
            return cpuCount == 0 ? -1 : (double) cpuSum / cpuCount;
        }

        public double meanCpuExclusiveNanos() {
            return cpuExclusiveCount == 0 ? -1 : (double) cpuExclusiveSum / cpuExclusiveCount;
        }

        public long cpuCount() {
            return cpuCount;
        }

        public long firstStartNanos() {
            return firstStart;
        }

        public long lastStartNanos() {
            return lastStart;
        }
    }
}
