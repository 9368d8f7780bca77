package io.sonde.core.live.mib;

/** Told when a source's gate opens (some kind wanted, not suspended) or closes; runs under the tree's lock. */
@FunctionalInterface
public interface GateListener {
    void gateChanged(Source source, boolean open);
}
