package io.sonde.agent.it;

import io.sonde.agent.testing.AgentJvm;
import java.io.IOException;
import java.nio.file.Path;

/** Starts the sample application ({@link io.sonde.agent.sample.SampleApp}) for the integration tests. */
final class AgentProcess {

    static final Path AGENT_JAR = AgentJvm.AGENT_JAR;
    static final String TEST_CLASSES = System.getProperty("test.sonde.classes", "target/test-classes");
    static final String SAMPLE = "io.sonde.agent.sample.SampleApp";

    private AgentProcess() {}

    /** Starts the sample scenario with the default JDK; {@code agentOptions} null = no agent. */
    static AgentJvm start(String agentOptions, String scenario) throws IOException {
        return start(Path.of(System.getProperty("java.home")), agentOptions, scenario);
    }

    /** Starts the sample scenario on the given JDK. */
    static AgentJvm start(Path javaHome, String agentOptions, String scenario) throws IOException {
        return start(javaHome, agentOptions, TEST_CLASSES, scenario);
    }

    /** Starts the sample with a class path of its own and any scenario arguments. */
    static AgentJvm start(Path javaHome, String agentOptions, String classPath, String... scenario) throws IOException {
        return AgentJvm.start(javaHome, agentOptions, classPath, SAMPLE, scenario);
    }
}
