package io.sonde.agent;

import io.sonde.agent.config.AgentOptions;
import io.sonde.agent.instrument.ProbeCatalog;
import java.util.List;

/** Connects the agent to the core: starting it from the options, the probe registry, counters. */
final class CoreBinding {

    private CoreBinding() {}

    /** Starts the core's pipeline; returns configuration errors (then nothing was started). */
    static List<String> start(AgentOptions options) {
        return List.of();
    }

    /** The core's probe registry as the catalog needs it. */
    static ProbeCatalog.Registry registry() {
        return io.sonde.agent.instrument.StubRegistry.INSTANCE;
    }

    /** The core's counters as "name=value" lines. */
    static String[] counters() {
        return new String[0];
    }
}
