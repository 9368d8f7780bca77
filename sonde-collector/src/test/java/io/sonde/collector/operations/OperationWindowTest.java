package io.sonde.collector.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.collector.operations.OperationWindow.Changes;
import io.sonde.collector.operations.OperationWindow.Second;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OperationWindowTest {
    private static final long S = 1_000_000_000L;
    private static final long BASE = 1_790_000_000L; // an epoch second

    /** One generated execution. */
    private record Exec(String agent, String operation, long endNanos, long duration, boolean error) {}

    private record Key(String agent, String operation, long second) {}

    /**
     * The reference: lists of durations per agent/operation/second, the same arrival-order rule for
     * late executions (its second at or before newest - open) and for the cap (the first maxRows
     * agent/operation pairs seen keep their names), nearest-rank percentiles from sorted lists.
     */
    private static Map<Key, List<Exec>> reference(List<Exec> in, int ring, int maxRows, int open, long[] lateOut) {
        Map<Key, List<Exec>> out = new HashMap<>();
        Set<List<String>> named = new LinkedHashSet<>();
        long newest = -1;
        long late = 0;
        for (Exec e : in) {
            long s = Math.floorDiv(e.endNanos(), S);
            newest = Math.max(newest, s);
            if (s <= newest - open) {
                late++;
                continue;
            }
            List<String> pair = List.of(e.agent(), e.operation());
            if (!named.contains(pair) && named.size() < maxRows) named.add(pair);
            Key k = named.contains(pair) ? new Key(e.agent(), e.operation(), s) : new Key(OperationWindow.ALL_AGENTS, OperationWindow.OTHER, s);
            out.computeIfAbsent(k, x -> new ArrayList<>()).add(e);
        }
        long last = newest;
        out.keySet().removeIf(k -> k.second() <= last - ring);
        lateOut[0] = late;
        return out;
    }

    private static long nearestRank(List<Long> sorted, double p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size(), rank) - 1));
    }

    /** Executions roughly in time order, each arriving up to {@code jitter} seconds late. */
    private static List<Exec> generate(long seed, int n, int spanSeconds, int operations, int jitter) {
        Random r = new Random(seed);
        List<Exec> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long t = BASE * S + (long) ((double) i / n * spanSeconds * S);
            if (r.nextInt(10) == 0) t -= (long) (r.nextDouble() * jitter * S); // an execution reported late
            long duration = r.nextInt(4) == 0 ? (long) (Math.exp(r.nextDouble() * 18)) : 1000 + r.nextInt(50_000);
            out.add(new Exec("agent-" + r.nextInt(3), "op" + r.nextInt(operations), t, duration, r.nextInt(7) == 0));
        }
        return out;
    }

    private static void checkAgainstReference(long seed, int ring, int maxRows, int open, int n, int span, int operations) {
        List<Exec> in = generate(seed, n, span, operations, 8);
        OperationWindow w = new OperationWindow(ring, maxRows, open);
        for (Exec e : in) w.add(e.agent(), e.operation(), e.endNanos(), e.duration(), e.error());
        long[] late = new long[1];
        Map<Key, List<Exec>> expected = reference(in, ring, maxRows, open, late);
        Changes all = w.changesSince(0);
        Map<Key, Second> got = new HashMap<>();
        for (Second s : all.seconds()) assertThat(got.put(new Key(s.agent(), s.operation(), s.epochSecond()), s)).as("one entry per second").isNull();
        assertThat(got.keySet()).as("seed %d: the seconds", seed).isEqualTo(expected.keySet());
        assertThat(all.lateExecutions()).as("seed %d: late executions", seed).isEqualTo(late[0]);
        for (Map.Entry<Key, List<Exec>> e : expected.entrySet()) {
            Second s = got.get(e.getKey());
            List<Long> d = new ArrayList<>();
            for (Exec x : e.getValue()) d.add(x.duration());
            Collections.sort(d);
            String what = "seed " + seed + ", " + e.getKey();
            assertThat(s.calls()).as(what).isEqualTo(d.size());
            assertThat(s.errors()).as(what).isEqualTo(e.getValue().stream().filter(Exec::error).count());
            assertThat(s.max()).as(what).isEqualTo(d.get(d.size() - 1));
            assertThat(s.sealed()).as(what).isEqualTo(e.getKey().second() <= all.newestSecond() - open);
            for (double p : new double[] {50, 95, 99}) {
                long want = nearestRank(d, p);
                long have = p == 50 ? s.p50() : p == 95 ? s.p95() : s.p99();
                if (d.size() <= 256) {
                    assertThat(have).as(what + " p" + p + " (exact)").isEqualTo(want);
                } else {
                    assertThat((double) have).as(what + " p" + p + " (histogram, 2 digits)").isCloseTo(want, org.assertj.core.data.Percentage.withPercentage(1.0));
                }
            }
        }
    }

    @Test
    void matchesAStraightforwardComputationForSeededExecutions() {
        for (long seed = 1; seed <= 20; seed++) {
            checkAgainstReference(seed, 60, 50, 5, 5_000, 40, 8);
        }
    }

    @Test
    void keepsOnlyTheRingsSecondsAndCountsBeyondTheCapInTheOtherRow() {
        for (long seed = 100; seed <= 110; seed++) {
            checkAgainstReference(seed, 20, 6, 3, 8_000, 90, 12); // 90 s of data through a 20 s ring; 36 pairs for 6 rows
        }
    }

    @Test
    void busySecondsUseTheHistogramWithinItsPrecision() {
        checkAgainstReference(7, 30, 10, 5, 60_000, 20, 2); // about 500 calls per operation and second
    }

    @Test
    void changesSinceAVersionAreExactlyTheSecondsChangedAndAddUpToTheWhole() {
        List<Exec> in = generate(42, 6_000, 30, 5, 6);
        OperationWindow w = new OperationWindow(60, 100, 4);
        Map<Key, Second> page = new HashMap<>(); // what a page holds, merging each delivery
        long version = 0;
        for (int i = 0; i < in.size(); i++) {
            Exec e = in.get(i);
            w.add(e.agent(), e.operation(), e.endNanos(), e.duration(), e.error());
            if (i % 97 == 0) {
                Changes c = w.changesSince(version);
                assertThat(c.version()).isGreaterThanOrEqualTo(version);
                for (Second s : c.seconds()) page.put(new Key(s.agent(), s.operation(), s.epochSecond()), s);
                version = c.version();
                assertThat(w.changesSince(version).seconds()).as("nothing changed since the last look").isEmpty();
            }
        }
        for (Second s : w.changesSince(version).seconds()) page.put(new Key(s.agent(), s.operation(), s.epochSecond()), s);
        Map<Key, Second> whole = new HashMap<>();
        for (Second s : w.changesSince(0).seconds()) whole.put(new Key(s.agent(), s.operation(), s.epochSecond()), s);
        assertThat(page).isEqualTo(whole);
        assertThat(whole.values().stream().filter(s -> !s.sealed()).count()).as("only the last 4 seconds are open").isLessThanOrEqualTo(4L * 15);
    }

    @Test
    void aRangeLimitsTheSecondsSent() {
        OperationWindow w = new OperationWindow(60, 10, 2);
        for (int s = 0; s < 30; s++) w.add("a", "op", (BASE + s) * S, 1000, false);
        Changes c = w.changesSince(0, BASE + 20);
        assertThat(c.newestSecond()).isEqualTo(BASE + 29);
        assertThat(c.seconds()).extracting(Second::epochSecond).containsExactlyInAnyOrderElementsOf(
                java.util.stream.LongStream.rangeClosed(BASE + 20, BASE + 29).boxed().toList());
    }

    @Test
    void manyOperationsStayWithinTheCapAndEveryCallIsCounted() {
        OperationWindow w = new OperationWindow(10, 100, 2);
        long total = 0;
        for (int i = 0; i < 200_000; i++) {
            w.add("agent", "op" + i, BASE * S + (i / 50_000) * S, 1000 + i % 100, i % 3 == 0); // in time order: none late
            total++;
        }
        Changes c = w.changesSince(0);
        assertThat(c.rows()).isEqualTo(101);
        assertThat(c.lateExecutions()).isZero();
        assertThat(c.otherExecutions()).isEqualTo(200_000 - 100);
        assertThat(c.seconds().stream().mapToLong(Second::calls).sum() + c.lateExecutions()).isEqualTo(total);
        assertThat(c.seconds().stream().filter(s -> s.operation().equals(OperationWindow.OTHER)).mapToLong(Second::calls).sum())
                .isEqualTo(c.otherExecutions());
        // the rows are fixed arrays: 101 rows of 10 slots, whatever the number of operation names seen
        assertThat(c.seconds()).hasSizeLessThanOrEqualTo(101 * 10);
    }

    @Test
    void badSizesAreRefusedNamingTheParameter() {
        assertThatThrownBy(() -> new OperationWindow(0, 1, 1)).hasMessageContaining("seconds");
        assertThatThrownBy(() -> new OperationWindow(10, 0, 1)).hasMessageContaining("maxRows");
        assertThatThrownBy(() -> new OperationWindow(10, 1, 11)).hasMessageContaining("openSeconds");
    }
}
