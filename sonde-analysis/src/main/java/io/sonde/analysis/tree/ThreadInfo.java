package io.sonde.analysis.tree;

import io.sonde.analysis.input.AgentInfo;

/**
 * A thread of a monitored process.
 *
 * @param agent the process it belongs to
 * @param threadId the Java thread id
 * @param name the thread name from its THREAD_DEF, or {@code thread-<id>} when none was seen
 */
public record ThreadInfo(AgentInfo agent, long threadId, String name) {
    /** {@code name (agent#index)}, a short label for displays. */
    public String label() {
        return name + " [agent " + agent.index() + ", tid " + threadId + "]";
    }
}
