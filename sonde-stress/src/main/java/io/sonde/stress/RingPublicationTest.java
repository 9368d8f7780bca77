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
 * The thread ring's hand-off from its producer to the writer thread. The producer writes each
 * record with plain stores and publishes the new write position with a release store; the
 * consumer reads the position with an acquire load and then the bytes below it. Result: (published
 * position, 1 if every byte below it is the record written there / 0 if any is stale / -1 if
 * nothing was published).
 */
@JCStressTest
@Description("ThreadBuffer: a published write position implies complete record bytes below it")
@Outcome(id = "0, -1", expect = ACCEPTABLE, desc = "nothing published yet")
@Outcome(id = "34, 1", expect = ACCEPTABLE, desc = "TRACE_START + ENTER published, bytes complete")
@Outcome(id = "47, 1", expect = ACCEPTABLE, desc = "ENTER and EXIT published, bytes complete")
@Outcome(id = {"34, 0", "47, 0"}, expect = FORBIDDEN, desc = "position published but stale record bytes seen")
@State
public class RingPublicationTest {
    private final ThreadBuffer ring = Rings.ring(Thread.currentThread());

    @Actor
    public void producer() {
        Rings.produce(ring);
    }

    @Actor
    public void consumer(II_Result r) {
        long published = ring.writePosition();
        r.r1 = (int) published;
        r.r2 = published == 0 ? -1 : Rings.complete(ring, published) ? 1 : 0;
    }
}
