package io.sonde.bench.packing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The study's selection and confirmation logic with a scripted runner: throughputs are given per
 * configuration and call, so every figure and verdict below is exact (no timing, no threads).
 */
class ConfirmationTest {
    private static final List<Integer> LADDER = List.of(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024);
    private static final int FRAME_BYTES = 256 << 10;

    /** Returns the scripted events/s of each configuration, call by call (the last value repeats), and logs the calls. */
    static final class ScriptedRunner implements Runner {
        final Map<String, List<Double>> script = new HashMap<>();
        final Map<String, Integer> calls = new HashMap<>();
        final List<String> log = new ArrayList<>();

        ScriptedRunner set(String packing, double... eventsPerSecond) {
            List<Double> v = new ArrayList<>();
            for (double e : eventsPerSecond) v.add(e);
            script.put(packing, v);
            return this;
        }

        @Override
        public PackingBenchmark.Run run(Source source, String packing, double warmSeconds, double seconds) {
            List<Double> v = script.get(packing);
            if (v == null) throw new AssertionError("not scripted: " + packing);
            int n = calls.merge(packing, 1, Integer::sum) - 1;
            log.add(packing);
            double eps = v.get(Math.min(n, v.size() - 1));
            PackingBenchmark.Result r = new PackingBenchmark.Result(source.name, packing, seconds, (long) (eps * seconds), eps, eps / 1e3,
                    eps / 100, 100, 1_000_000, 2_000_000, 3_000_000, 500, 400, Double.NaN, Double.NaN, eps, eps);
            return new PackingBenchmark.Run(r, new double[0], new int[0]);
        }
    }

    private static PackingBenchmark.Plan plan(Source source, int confirmRounds) {
        return new PackingBenchmark.Plan(List.of(source), LADDER, 0.5, 1.5, 5, 3, confirmRounds, 12, FRAME_BYTES);
    }

    /** 1,000-byte events: static degrees rising to 1.29-1.30 M events/s at 512 and 1,024 (the same frames), 100 k without packing. */
    private static ScriptedRunner thousandBytes() {
        ScriptedRunner r = new ScriptedRunner();
        double eps = 100_000;
        for (int d : LADDER) {
            if (d <= 128) r.set("static:" + d, eps);
            eps *= 1.3;
        }
        return r.set("static:512", 1_290_000).set("static:1024", 1_300_000).set("fill", 1_300_000).set("adaptive:wall", 1_200_000);
    }

    @Test
    void anOutlierThatWinsTheSweepIsJudgedOnFreshRoundsNotOnTheRunsThatSelectedIt() throws Exception {
        // the winner's curse: static:256 is lucky in all three sweep runs (1.48-1.50 M), then measures
        // 1.30 M like the degrees that send the same frames as adaptive; adaptive makes 1.26 M in the
        // sweep (84 % of the lucky best) and 1.27 M in every confirmation round (98 %)
        ScriptedRunner runner = thousandBytes().set("static:256", 1_490_000, 1_500_000, 1_480_000, 1_300_000)
                .set("adaptive", 1_260_000, 1_260_000, 1_260_000, 1_270_000);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PackingBenchmark.SourceStudy study = PackingBenchmark.study(plan(Source.continuous(1000), 5), runner,
                new PrintStream(text, true, StandardCharsets.UTF_8)).get(0);

        Confirmation c = study.confirmation();
        assertThat(c.best.label()).isEqualTo("static:256");
        assertThat(c.runnerUp.label()).isEqualTo("static:512-1024");
        assertThat(study.sweepRow("static:256").eventsPerSecond()).isEqualTo(1_490_000);
        assertThat(study.sweepRow(Confirmation.ADAPTIVE).eventsPerSecond() / study.sweepRow("static:256").eventsPerSecond())
                .isCloseTo(0.846, offset(0.001));
        assertThat(c.adaptiveOfBest().median()).isCloseTo(1.27 / 1.30, offset(1e-9));
        assertThat(c.meetsGoalOfBest()).isTrue();
        assertThat(c.goalOverNone()).isEqualTo("met");
        String out = text.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("sweep's own ratio (best selected on these runs, biased): adaptive 85 % of static:256",
                "adaptive / static:256 (best static on the sweep), paired per round: median 98 % (min 98 %, max 98 %)",
                "goal adaptive >= 95 % of the best static degree (median of 5 paired rounds): met",
                "goal adaptive >= 3 x no packing: met");
    }

    @Test
    void adaptiveBelowTheGoalInTheConfirmationRoundsIsNotMet() throws Exception {
        // static:256 really is the best (1.50 M throughout); adaptive makes 1.30 M: 87 %
        ScriptedRunner runner = thousandBytes().set("static:256", 1_500_000).set("adaptive", 1_300_000);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        Confirmation c = PackingBenchmark.study(plan(Source.continuous(1000), 5), runner, new PrintStream(text, true, StandardCharsets.UTF_8))
                .get(0).confirmation();
        assertThat(c.adaptiveOfBest().median()).isCloseTo(1.3 / 1.5, offset(1e-9));
        assertThat(c.meetsGoalOfBest()).isFalse();
        assertThat(text.toString(StandardCharsets.UTF_8)).contains("(median of 5 paired rounds): NOT met");
    }

    @Test
    void ratiosArePairedWithinARoundSoALoadChangeBetweenRoundsCancels() throws Exception {
        // every configuration at half speed in round 2 and at double speed in round 4 (the machine's load);
        // paired, adaptive is exactly 96 % of the best in every round
        double[] load = {1, 0.5, 1, 2, 1};
        ScriptedRunner runner = thousandBytes().set("static:256", scaled(1_500_000, 1_500_000, load))
                .set("static:512", scaled(1_290_000, 1_290_000, load)).set("static:1", scaled(100_000, 100_000, load))
                .set("adaptive", scaled(1_300_000, 1_440_000, load));
        Confirmation c = PackingBenchmark.study(plan(Source.continuous(1000), 5), runner, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8)).get(0).confirmation();
        PairedRatio ofBest = c.adaptiveOfBest();
        assertThat(ofBest.min()).isCloseTo(0.96, offset(1e-9));
        assertThat(ofBest.max()).isCloseTo(0.96, offset(1e-9));
        assertThat(c.meetsGoalOfBest()).isTrue();
    }

    /** Three sweep runs at {@code sweep}, then one confirmation run per round at {@code confirm} x the round's load. */
    private static double[] scaled(double sweep, double confirm, double[] load) {
        double[] v = new double[3 + load.length];
        for (int i = 0; i < 3; i++) v[i] = sweep;
        for (int i = 0; i < load.length; i++) v[3 + i] = confirm * load[i];
        return v;
    }

    @Test
    void eachRoundRunsEveryConfigurationOnceInAnOrderDrawnFromTheSeed() throws Exception {
        ScriptedRunner first = thousandBytes().set("static:256", 1_500_000).set("adaptive", 1_400_000);
        Confirmation c = PackingBenchmark.study(plan(Source.continuous(1000), 6), first, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8)).get(0).confirmation();
        assertThat(c.configurations).containsExactly("static:256", "static:512", "static:1", "adaptive");
        assertThat(c.orders).hasSize(6);
        for (List<String> order : c.orders) assertThat(order).containsExactlyInAnyOrderElementsOf(c.configurations);
        assertThat(new HashSet<>(c.orders)).as("the order changes between rounds").hasSizeGreaterThan(1);
        // the confirmation's calls are the end of the runner's log, round after round, in the recorded orders
        List<String> tail = first.log.subList(first.log.size() - 6 * 4, first.log.size());
        List<String> expected = new ArrayList<>();
        c.orders.forEach(expected::addAll);
        assertThat(tail).isEqualTo(expected);
        // the same seed gives the same orders
        ScriptedRunner again = thousandBytes().set("static:256", 1_500_000).set("adaptive", 1_400_000);
        Confirmation repeated = PackingBenchmark.study(plan(Source.continuous(1000), 6), again, new PrintStream(new ByteArrayOutputStream(),
                true, StandardCharsets.UTF_8)).get(0).confirmation();
        assertThat(repeated.orders).isEqualTo(c.orders);
    }

    @Test
    void whereNoStaticDegreeReachesThreeTimesNoPackingThatGoalDoesNotApply() throws Exception {
        ScriptedRunner runner = new ScriptedRunner();
        for (int d : LADDER) runner.set("static:" + d, 50_000 + 10 * d);
        runner.set("static:512", 120_000).set("fill", 100_000).set("adaptive", 119_000).set("adaptive:wall", 90_000);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        Confirmation c = PackingBenchmark.study(plan(Source.bursty(1000, 1000, 10), 3), runner, new PrintStream(text, true,
                StandardCharsets.UTF_8)).get(0).confirmation();
        assertThat(c.best.label()).isEqualTo("static:512-1024");
        assertThat(c.goalOverNone()).isEqualTo("not applicable");
        assertThat(text.toString(StandardCharsets.UTF_8)).contains("goal adaptive >= 3 x no packing: not applicable (the best static degree reaches 2.4 x)");
    }

    @Test
    void staticDegreesThatSendIdenticalFramesFormOneGroup() {
        assertThat(labels(Source.continuous(1000))).endsWith("static:256", "static:512-1024");
        assertThat(labels(Source.continuous(10_000))).endsWith("static:128", "static:256-1024");
        assertThat(labels(Source.continuous(100))).hasSize(LADDER.size()).endsWith("static:1024");
        // 100-byte phases fit 1,024 records: 512 and 1,024 differ there, though both fill frames of 2,000-byte records
        assertThat(labels(Source.changing(1000))).hasSize(LADDER.size());
        List<DegreeGroup> groups = DegreeGroup.of(Source.continuous(1000), LADDER, FRAME_BYTES);
        assertThat(groups.get(groups.size() - 1).capped()).isTrue();
        assertThat(groups.get(groups.size() - 2).capped()).isFalse();
        assertThat(PackingBenchmark.convergenceRange(groups.get(groups.size() - 1))).containsExactly(9, 31);
        assertThat(PackingBenchmark.convergenceRange(groups.get(groups.size() - 2))).containsExactly(8, 8);
    }

    private static List<String> labels(Source s) {
        return DegreeGroup.of(s, LADDER, FRAME_BYTES).stream().map(DegreeGroup::label).toList();
    }

    @Test
    void thePairedRatiosMedianRangeAndBadInput() {
        PairedRatio r = new PairedRatio(new double[] {0.9, 1.1, 0.95, 1.0});
        assertThat(r.median()).isCloseTo(0.975, offset(1e-12));
        assertThat(r.min()).isEqualTo(0.9);
        assertThat(r.max()).isEqualTo(1.1);
        assertThat(new PairedRatio(new double[] {3, 1, 2}).median()).isEqualTo(2);
        assertThatThrownBy(() -> new PairedRatio(new double[0])).hasMessageContaining("at least one round");
        assertThatThrownBy(() -> PackingBenchmark.main(new String[] {"--confirm", "0"})).hasMessageContaining("option --confirm: '0'");
    }
}
