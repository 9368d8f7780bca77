package io.sonde.core.control;

import java.io.IOException;

/**
 * A JVM to attach to in tests: says "ready" once main runs, then waits for its stdin to close. Also
 * a minimal agent ({@code Agent-Class}): loaded, it publishes its options as a system property.
 */
public final class AttachTarget {

    /** The system property the agent sets to its options string. */
    public static final String LOADED_PROPERTY = "attach.target.agent";

    private AttachTarget() {}

    public static void agentmain(String options) {
        System.setProperty(LOADED_PROPERTY, String.valueOf(options));
    }

    public static void main(String[] args) throws IOException {
        System.out.println("ready");
        System.out.flush();
        while (System.in.read() >= 0) {
            // until the test closes stdin
        }
    }
}
