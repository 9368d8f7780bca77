package io.sonde.api;

import io.sonde.core.probe.ProbeRuntime;
import io.sonde.core.probe.Probes;

/**
 * A method-execution probe. Wrap the monitored code like this:
 *
 * <pre>{@code
 * boolean e = probe.enter();
 * try {
 *     ...
 * } catch (Throwable t) {
 *     probe.exitExceptionally(e, t);
 *     throw t;
 * }
 * probe.exit(e);
 * }</pre>
 *
 * The calls forward to the static entry points of {@link Probes} with this probe's id.
 */
public final class MethodProbe {
    private final ProbeRuntime runtime;
    private final int id;
    private final String name;
    private final String signature;

    MethodProbe(ProbeRuntime runtime, int id, String name, String signature) {
        this.runtime = runtime;
        this.id = id;
        this.name = name;
        this.signature = signature;
    }

    /** Records the method entry if the probe is on; returns whether it did. */
    public boolean enter() {
        return Probes.enter(id);
    }

    /** Records the normal exit; pass what {@link #enter()} returned. */
    public void exit(boolean entered) {
        Probes.exit(id, entered);
    }

    /** Records an exit by exception; pass what {@link #enter()} returned. */
    public void exitExceptionally(boolean entered, Throwable thrown) {
        Probes.exitExceptionally(id, entered, thrown);
    }

    /** Switches the probe on or off; takes effect immediately, also in running loops. */
    public void setEnabled(boolean on) {
        runtime.setEnabled(id, on);
    }

    /** Whether the probe records. */
    public boolean isEnabled() {
        return runtime.isEnabled(id);
    }

    /** The id to pass to {@link Probes#enter(int)} and friends. */
    public int id() {
        return id;
    }

    /** The probe's name, e.g. {@code com.acme.Shop.checkout}. */
    public String name() {
        return name;
    }

    /** The probe's signature, e.g. a JVM method descriptor. */
    public String signature() {
        return signature;
    }
}
