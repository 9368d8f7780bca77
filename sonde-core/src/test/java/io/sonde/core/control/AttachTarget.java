package io.sonde.core.control;

import java.io.IOException;

/** A JVM to attach to in tests: says "ready" once main runs, then waits for its stdin to close. */
public final class AttachTarget {

    private AttachTarget() {}

    public static void main(String[] args) throws IOException {
        System.out.println("ready");
        System.out.flush();
        while (System.in.read() >= 0) {
            // until the test closes stdin
        }
    }
}
