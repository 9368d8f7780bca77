package io.sonde.cli.live;

import io.sonde.observer.ObserverClient;
import java.io.IOException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code sonde suspend} and {@code sonde resume}: switch the sensors matching a pattern off and on
 * in a running process (process-wide, for every observer; a suspension also covers matching sensors
 * created later, until resumed).
 */
public abstract class SensorSwitchCommand implements Callable<Integer> {
    @Mixin
    EndpointPattern target;

    @Mixin
    ObserveOptions observe;

    /** Suspends (true) or resumes (false). */
    abstract boolean suspends();

    @Override
    public Integer call() {
        ObserveAddress a = target.address();
        String pattern = target.pattern;
        int n;
        try (ObserverClient c = observe.connect(a, (sub, events) -> {})) {
            n = suspends() ? c.suspend(pattern) : c.resume(pattern);
        } catch (IOException e) {
            throw ObserveOptions.failure(a, e);
        }
        System.out.println((suspends() ? "suspended " : "resumed ") + n + " sensor(s) matching '" + pattern + "' at " + a.endpoint()
                + (suspends() ? "; sensors created later that match are suspended too, until resumed" : ""));
        return 0;
    }

    /** {@code sonde suspend}. */
    @Command(name = "suspend", mixinStandardHelpOptions = true,
            description = {"Suspends the sensors matching PATTERN in a running process (observe endpoint).",
                "They generate no events for any observer until resumed; matching sensors created later start suspended."})
    public static final class Suspend extends SensorSwitchCommand {
        @Override
        boolean suspends() {
            return true;
        }
    }

    /** {@code sonde resume}. */
    @Command(name = "resume", mixinStandardHelpOptions = true,
            description = {"Resumes the sensors matching PATTERN in a running process (observe endpoint).",
                "Also ends a suspension made with the same pattern."})
    public static final class Resume extends SensorSwitchCommand {
        @Override
        boolean suspends() {
            return false;
        }
    }
}
