package io.sonde.core.probe;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Switching a probe off while a thread runs through it. The switch is one byte per probe, written
 * with a volatile store by {@link ProbeRuntime#setEnabled} and read on the hot path with an opaque
 * load (what {@link Probes#enter} does). Opaque access guarantees coherence per variable: once a
 * thread has read "off", its later reads cannot return the older "on", so a switched-off probe
 * produces nothing after its thread has observed the switch. What it does not give: a deadline
 * (an enter that already read "on" records, and there is no fence making setEnabled wait for
 * running threads). Result: the switch as read by two consecutive enter checks of one thread.
 *
 * <p>In package {@code io.sonde.core.probe} to use the hot path's own VarHandle and array.
 */
@JCStressTest
@Description("ProbeRuntime switches: a probe seen off stays off for that thread")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "switch not observed yet: both enters record")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "switch observed between the two enters")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "switch observed before the first enter")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "probe on again after being seen off: it would produce after the switch")
@State
public class ProbeSwitchOffTest {
    static final int PROBE = 1;
    private final ProbeRuntime runtime = new ProbeRuntime(null);

    public ProbeSwitchOffTest() {
        runtime.addProbe(PROBE); // new probes start switched on
    }

    @Actor
    public void switchOff() {
        runtime.setEnabled(PROBE, false);
    }

    @Actor
    public void probeThread(II_Result r) {
        r.r1 = enterCheck();
        r.r2 = enterCheck();
    }

    /** The switch test of {@link Probes#enter}, on this runtime's array. */
    private int enterCheck() {
        byte[] s = runtime.switches;
        return (byte) ProbeRuntime.SWITCH.getOpaque(s, PROBE);
    }
}
