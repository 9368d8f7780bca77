package io.sonde.api.live;

/** Holds the process's switch (an interface cannot have a mutable static field). */
final class ProcessProbeSwitch {
    static volatile ProbeSwitch current;

    private ProcessProbeSwitch() {}
}
