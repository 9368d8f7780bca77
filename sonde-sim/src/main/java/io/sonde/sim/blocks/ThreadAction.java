package io.sonde.sim.blocks;

/** Model code run as an instantaneous program step (record a measure, route, stamp...). */
@FunctionalInterface
public interface ThreadAction {
    /**
     * Runs at the current simulated time.
     *
     * @param thread the thread executing the step
     * @param request its current request (may be null)
     */
    void run(SimThread thread, Request request);
}
