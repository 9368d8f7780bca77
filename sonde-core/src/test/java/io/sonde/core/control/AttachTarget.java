package io.sonde.core.control;

import java.io.IOException;

/**
 * A JVM to attach to in tests: says "ready" once main runs, then waits for its stdin to close. Also
 * a minimal agent ({@code Agent-Class}): loaded, it publishes its options as a system property, or
 * with the options {@code clear=NAME} clears system property NAME.
 */
public final class AttachTarget {

    /** The system property the agent sets to its options string. */
    public static final String LOADED_PROPERTY = "attach.target.agent";

    private AttachTarget() {}

    public static void agentmain(String options) {
        if (options != null && options.startsWith("clear=")) {
            System.clearProperty(options.substring("clear=".length()));
        } else {
            System.setProperty(LOADED_PROPERTY, String.valueOf(options));
        }
    }

    public static void main(String[] args) throws IOException {
        System.out.println("ready");
        System.out.flush();
        while (System.in.read() >= 0) {
            // until the test closes stdin
        }
    }
}
