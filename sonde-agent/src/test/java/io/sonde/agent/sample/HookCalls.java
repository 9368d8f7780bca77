package io.sonde.agent.sample;

import java.util.ArrayList;
import java.util.List;

/**
 * Hook methods for the hook weaver's tests: each call is recorded, in order, so a test can see
 * what the woven code called and with what.
 */
public final class HookCalls {

    /** The calls so far, as {@code method(argument)}. */
    public static final List<String> CALLS = new ArrayList<>();
    /** When true, every hook throws after recording its call: the woven code must drop it. */
    public static boolean fail;

    private HookCalls() {}

    /** An entry hook whose result is a token: a fresh object per call. */
    public static Object begin() {
        Object token = "token" + CALLS.size();
        record("begin()");
        return token;
    }

    /** The exit hook. */
    public static void end(Object token) {
        record("end(" + token + ")");
    }

    /** A hook replacing a String argument. */
    public static Object upper(Object s) {
        record("upper(" + s + ")");
        return s == null ? null : s.toString().toUpperCase(java.util.Locale.ROOT);
    }

    /** A hook given the receiver and a long argument, result dropped. */
    public static long seen(Object self, long value) {
        record("seen(" + self.getClass().getSimpleName() + ", " + value + ")");
        return value;
    }

    private static void record(String call) {
        CALLS.add(call);
        if (fail) {
            throw new IllegalStateException("a failing hook");
        }
    }
}
