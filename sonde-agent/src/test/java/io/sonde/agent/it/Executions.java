package io.sonde.agent.it;

import io.sonde.agent.it.Recorded.Rec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The method executions of a recorded log with their place in the traces: trace id, order index
 * (the n-th ENTER of the trace, from 0), depth, and the parent named by the trace's TRACE_START.
 * Lets a test follow a child trace's parent link to the execution that handed the work over.
 */
final class Executions {

    /** One method execution. {@code parentTraceId}/{@code parentOrder} are its trace's parent (0/-1 for a root). */
    record Exec(String thread, String probe, long traceId, int order, int depth, long parentTraceId, int parentOrder) {
        String method() {
            return probe.substring(probe.lastIndexOf('.') + 1);
        }

        /** Class and method, without the package: {@code HandoffApp$Work.pooled}. */
        String shortName() {
            String cls = probe.substring(0, probe.lastIndexOf('.'));
            return cls.substring(cls.lastIndexOf('.') + 1) + "." + method();
        }

        boolean isTraceRoot() {
            return depth == 0;
        }
    }

    final List<Exec> all = new ArrayList<>();
    private final Map<String, Exec> byPosition = new HashMap<>();

    Executions(Recorded r) {
        for (String thread : r.threads()) {
            long trace = 0;
            long parentTrace = 0;
            int parentOrder = -1;
            int order = 0;
            int depth = 0;
            for (Rec x : r.thread(thread)) {
                if (x.isTraceStart()) {
                    trace = x.traceId();
                    parentTrace = x.parentTraceId();
                    parentOrder = x.parentOrder();
                    order = 0;
                } else if (x.isEnter()) {
                    Exec e = new Exec(thread, x.probe(), trace, order++, depth++, parentTrace, parentOrder);
                    all.add(e);
                    byPosition.put(e.traceId() + "/" + e.order(), e);
                } else if (x.isExit() || x.isExceptionExit()) {
                    depth--;
                }
            }
        }
    }

    /** The executions whose short name ({@code Class.method} without the package) is {@code name}. */
    List<Exec> named(String name) {
        return all.stream().filter(e -> e.shortName().equals(name)).collect(Collectors.toList());
    }

    /** The execution that handed {@code e}'s trace over (its trace's parent), or null (a root, or not in the log). */
    Exec parentOf(Exec e) {
        return e.parentTraceId() == 0 ? null : byPosition.get(e.parentTraceId() + "/" + e.parentOrder());
    }

    /** The root execution of trace {@code traceId}. */
    Exec root(long traceId) {
        return byPosition.get(traceId + "/0");
    }
}
