package io.sonde.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.sonde.core.buffer.ThreadBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Releasing the ring of a thread that died. The writer thread reads {@code ownerDead()} first and
 * the published position second (as WriterLoop.drain does); once it has seen the owner dead it
 * drains up to that position and releases the ring for good. That is safe only if seeing the
 * thread dead implies seeing every record the thread published: thread termination
 * synchronizes-with {@code Thread.isAlive()} returning false (JLS 17.4.4).
 *
 * <p>An owner thread is started per state; the ring becomes visible to the writer only after
 * {@code start()} (as in the pipeline, where a thread creates its own ring while running), so an
 * unstarted thread is never mistaken for a dead one. Result: (1 if the owner was seen dead,
 * published position), or (-1, -1) if the ring was not visible yet.
 */
@JCStressTest
@Description("ThreadBuffer.ownerDead(): a ring seen dead shows everything its thread published")
@Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "ring not handed to the writer yet")
@Outcome(id = {"0, 0", "0, 34", "0, 47"}, expect = ACCEPTABLE, desc = "owner alive: any published prefix")
@Outcome(id = "1, 47", expect = ACCEPTABLE, desc = "owner dead and all its records visible: safe to release")
@Outcome(id = {"1, 0", "1, 34"}, expect = FORBIDDEN, desc = "owner seen dead but records missing: they would be lost")
@State
public class RingHandOverTest {
    /** The ring as the writer thread finds it (the pipeline's buffer list is published likewise). */
    private volatile ThreadBuffer visible;

    @Actor
    public void ownerLivesAndDies() {
        ThreadBuffer[] holder = new ThreadBuffer[1];
        Thread owner = new Thread(() -> Rings.produce(holder[0]), "sonde-stress-owner");
        owner.setDaemon(true);
        holder[0] = Rings.ring(owner);
        owner.start();
        visible = holder[0];
    }

    @Actor
    public void writer(II_Result r) {
        ThreadBuffer b = visible;
        if (b == null) {
            r.r1 = -1;
            r.r2 = -1;
            return;
        }
        boolean dead = b.ownerDead(); // death first, then the position (WriterLoop.drain's order)
        r.r1 = dead ? 1 : 0;
        r.r2 = (int) b.writePosition();
    }
}
