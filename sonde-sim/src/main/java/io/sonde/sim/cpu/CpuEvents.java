package io.sonde.sim.cpu;

import io.sonde.sim.engine.Event;
import java.util.function.IntConsumer;

/** The reusable per-CPU timer events of the time-slicing schedulers (one event object per CPU, no allocation per burst). */
final class CpuEvents {
    private CpuEvents() {}

    /** One event per CPU; firing the event of CPU {@code i} calls {@code handler.accept(i)}. */
    static Event[] perCpu(int cpus, IntConsumer handler) {
        Event[] events = new Event[cpus];
        for (int i = 0; i < cpus; i++) {
            final int cpu = i;
            events[i] = new Event() {
                @Override
                protected void fire() {
                    handler.accept(cpu);
                }
            };
        }
        return events;
    }
}
