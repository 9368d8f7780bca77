package io.sonde.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The heap against a plain sorted-list reference, over many seeded random operation mixes. */
class EventListTest {
    private static final class Tagged extends Event {
        final int id;
        long seq; // reference bookkeeping: the sequence at the last (re)scheduling

        Tagged(int id) {
            this.id = id;
        }

        @Override
        protected void fire() {}
    }

    @Test
    void behavesLikeASortedListUnderRandomSchedulesMovesCancelsAndPolls() {
        for (int seed = 0; seed < 200; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            EventList list = new EventList();
            List<Tagged> pool = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                pool.add(new Tagged(i));
            }
            List<Tagged> reference = new ArrayList<>();
            long seq = 0;
            Comparator<Tagged> order = Comparator.<Tagged>comparingDouble(e -> e.time).thenComparingLong(e -> e.seq);
            for (int op = 0; op < 2_000; op++) {
                int kind = rnd.nextInt(10);
                Tagged e = pool.get(rnd.nextInt(pool.size()));
                if (kind < 6) {
                    // Coarse times so that ties are frequent.
                    double t = rnd.nextInt(20);
                    list.schedule(e, t);
                    e.seq = seq++;
                    reference.remove(e);
                    reference.add(e);
                } else if (kind < 8) {
                    list.cancel(e);
                    reference.remove(e);
                    assertThat(e.isScheduled()).isFalse();
                } else if (!reference.isEmpty()) {
                    reference.sort(order);
                    Tagged expected = reference.remove(0);
                    assertThat(list.peekTime()).isEqualTo(expected.time);
                    Event got = list.poll();
                    assertThat(got).as("seed %d op %d", seed, op).isSameAs(expected);
                }
                assertThat(list.size()).isEqualTo(reference.size());
            }
            reference.sort(order);
            for (Tagged expected : reference) {
                assertThat(list.poll()).isSameAs(expected);
            }
            assertThat(list.isEmpty()).isTrue();
        }
    }

    @Test
    void growsBeyondItsInitialCapacity() {
        EventList list = new EventList();
        List<Tagged> events = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            Tagged e = new Tagged(i);
            events.add(e);
            list.schedule(e, 10_000 - i);
        }
        for (int i = 9_999; i >= 0; i--) {
            assertThat(list.poll()).isSameAs(events.get(i));
        }
    }
}
