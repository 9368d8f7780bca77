package io.sonde.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.sample.BudgetManyApp;
import io.sonde.agent.testing.AgentJvm;
import io.sonde.format.Format;
import io.sonde.format.read.AgentLog;
import io.sonde.format.read.SondeLogs;
import io.sonde.format.read.SondeReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The overhead budget in a real JVM ({@link io.sonde.agent.sample.BudgetApp}): a hot tiny method
 * and a cold important one. Asserted on what was switched, reported and recorded, not on timing.
 */
class BudgetIT {
    private static final String APP = "io.sonde.agent.sample.BudgetApp$";
    private static final String TINY = APP + "Hot.tiny";
    private static final String IMPORTANT = APP + "Work.important";
    private static final String RARE = APP + "Cold.rare";

    @TempDir
    Path dir;

    /** What one run left: the app's view of the probes and counters, and the log's switch events. */
    record Run(Set<String> off, Set<String> on, List<String> counters, List<Map<String, Object>> events,
            Map<String, Long> entersAfterFirstSwitch, Map<String, Long> enters, String stderr) {}

    /** What the app printed: its probe list (on, off), its counters (by prefix), and the agent's stderr. */
    record Printed(Set<String> off, Set<String> on, Map<String, List<String>> lines, String stderr) {
        List<String> lines(String prefix) {
            return lines.getOrDefault(prefix, List.of());
        }
    }

    /** Reads one record of the log (the reader positioned on it). */
    interface RecordVisitor {
        void visit(SondeReader r);
    }

    /**
     * Runs {@code app} under the agent with {@code options} (the budget's and the file writer's
     * are added) until it prints {@code done}; collects its {@code probe} lines, and every other
     * line by its first word.
     */
    private Printed launch(String include, String app, String seconds, String budgetOptions) throws Exception {
        return launch(dir, include, app, seconds, budgetOptions);
    }

    /** As {@link #launch(String, String, String, String)}, the log written into {@code output}. */
    private Printed launch(Path output, String include, String app, String seconds, String budgetOptions, String... more)
            throws Exception {
        // block-forever: the run checks written == produced, which the default bounded wait does not promise under load
        // the run-time budget is what most tests here judge: trivial methods stay in unless a test says otherwise
        String options = "include=" + include + ",file.dir=" + output + ",budget.interval.ms=250,policy=block-forever,"
                + (budgetOptions.contains("budget.trivial=") ? "" : "budget.trivial=off,") + budgetOptions;
        Set<String> off = new TreeSet<>();
        Set<String> on = new TreeSet<>();
        Map<String, List<String>> lines = new HashMap<>();
        String[] args = new String[1 + more.length];
        args[0] = seconds;
        System.arraycopy(more, 0, args, 1, more.length);
        try (AgentJvm p = AgentJvm.start(options, AgentProcess.TEST_CLASSES, app, args)) {
            String line;
            while (!(line = p.awaitLine("")).equals("done")) {
                if (line.startsWith("probe ")) {
                    String[] f = line.split(" +"); // probe on|off id name signature
                    (f[1].equals("on") ? on : off).add(f[3]);
                } else {
                    int space = line.indexOf(' ');
                    lines.computeIfAbsent(space < 0 ? line : line.substring(0, space), k -> new ArrayList<>())
                            .add(space < 0 ? "" : line.substring(space + 1));
                }
            }
            assertThat(p.awaitExit()).as(p.stderr()).isZero();
            return new Printed(off, on, lines, p.stderr());
        }
    }

    /** Reads the run's one log to its end, checks it is complete with nothing lost, and returns its switch events. */
    private List<Map<String, Object>> scanLog(RecordVisitor visitor) throws IOException {
        return scanLog(dir, visitor);
    }

    /** As {@link #scanLog(RecordVisitor)}, the log in {@code output}. */
    private static List<Map<String, Object>> scanLog(Path output, RecordVisitor visitor) throws IOException {
        List<Map<String, Object>> events = new ArrayList<>();
        List<AgentLog> logs = SondeLogs.scan(output);
        assertThat(logs).hasSize(1);
        try (SondeReader r = logs.get(0).open()) {
            while (r.next()) {
                if (r.type() == Format.EVENT && r.eventType().name().equals("sonde.budget.switch")) {
                    Map<String, Object> e = new HashMap<>();
                    for (int i = 0; i < r.eventType().fieldCount(); i++) e.put(r.eventType().fieldName(i), r.fieldValue(i));
                    e.put("time", r.time());
                    events.add(e);
                }
                visitor.visit(r);
            }
            assertThat(r.end().complete()).as(String.valueOf(r.end())).isTrue();
            assertThat(r.trailer().written()).isEqualTo(r.trailer().produced());
        }
        return events;
    }

    private Run run(String budgetOptions) throws Exception {
        Printed printed = launch(APP + "*", "io.sonde.agent.sample.BudgetApp", "3", budgetOptions);
        Map<String, Long> enters = new HashMap<>();
        Map<String, Long> after = new HashMap<>();
        long[] firstSwitch = {Long.MAX_VALUE};
        List<Map<String, Object>> events = scanLog(r -> {
            if (r.type() == Format.EVENT && r.eventType().name().equals("sonde.budget.switch")) {
                firstSwitch[0] = Math.min(firstSwitch[0], r.time());
            } else if (r.type() == Format.ENTER) {
                enters.merge(r.probeName(), 1L, Long::sum);
                // a switch takes effect at the next enter; 50 ms is slack for the thread to see it
                if (firstSwitch[0] != Long.MAX_VALUE && r.time() - firstSwitch[0] > 50_000_000L) after.merge(r.probeName(), 1L, Long::sum);
            }
        });
        return new Run(printed.off(), printed.on(), printed.lines("counter"), events, after, enters, printed.stderr());
    }

    private static Set<String> probesOf(List<Map<String, Object>> events) {
        Set<String> out = new TreeSet<>();
        for (Map<String, Object> e : events) out.add((String) e.get("probe"));
        return out;
    }

    @Test
    void theHotTinyMethodIsSwitchedOffAndReportedTheColdOnesStayOn() throws Exception {
        Run r = run("budget=5,budget.pin=" + IMPORTANT);
        assertThat(r.events()).as(r.stderr()).isNotEmpty();
        assertThat(probesOf(r.events())).as("switched by the budget: " + r.events() + r.stderr()).containsExactly(TINY);
        // only what is reported is off, and the app's own view agrees with the log
        assertThat(r.off()).containsExactly(TINY);
        assertThat(r.on()).contains(IMPORTANT, RARE);
        Map<String, Object> e = r.events().get(0);
        assertThat((String) e.get("reason")).startsWith("over budget").contains("budget 5 %");
        assertThat((Long) e.get("executions")).isPositive();
        assertThat((Double) e.get("share")).isGreaterThan(50.0);
        assertThat((Double) e.get("overhead")).isGreaterThan(5.0);
        assertThat(r.counters()).contains("budget.switched.off=1")
                .anyMatch(c -> c.startsWith("budget.off " + TINY + " executions="));
        assertThat(r.stderr()).contains("budget: monitoring cost").contains("switched off 1 probe(s): " + TINY);
        // recorded before the switch, not after it; the cold methods go on being recorded
        assertThat(r.enters().get(TINY)).isPositive();
        assertThat(r.entersAfterFirstSwitch().getOrDefault(TINY, 0L)).isZero();
        assertThat(r.entersAfterFirstSwitch().get(IMPORTANT)).isPositive();
        assertThat(r.entersAfterFirstSwitch().get(RARE)).isPositive();
    }

    @Test
    void anIntervalEndsEarlyWhenTheProgramStartsItsWorkAfterAQuietStartAndTheHotProbeGoesOffThen() throws Exception {
        // 2.5 s quiet, then 2.5 s of work: the intervals have grown while the program slept (100,
        // 200, 400, 800 ms, then 1.6 s, up to the 4 s allowed), and the interval under way when the
        // work starts ends at its next look, 100 ms later, instead of running its planned length
        Printed printed = launch(dir, APP + "*", "io.sonde.agent.sample.BudgetApp", "2.5",
                "budget=5,budget.interval.ms=4000,budget.pin=" + IMPORTANT, "2.5");
        List<String> intervals = printed.lines("counter").stream().filter(c -> c.startsWith("budget.interval ")).toList();
        assertThat(intervals).as(printed.stderr()).anyMatch(c -> c.contains("ended early: activity jumped"));
        // the quiet intervals grew (the rule did not shorten them), and the hot probe went off
        assertThat(intervals).anyMatch(c -> c.startsWith("budget.interval ms=800 "));
        assertThat(printed.off()).as(intervals.toString()).containsExactly(TINY);
    }

    @Test
    void aPinnedProbeStaysOnEvenWhenItIsWhatCostsTheBudgetSwitchesOffOnlyOthersAndReportsThem() throws Exception {
        Run r = run("budget=1,budget.pin=" + APP + "Hot.*");
        assertThat(r.off()).as(r.stderr()).doesNotContain(TINY);
        assertThat(r.on()).contains(TINY);
        assertThat(probesOf(r.events())).isEqualTo(r.off());
        assertThat(r.off()).isNotEmpty().isSubsetOf(Set.of(IMPORTANT, RARE));
        assertThat(r.counters()).contains("budget.switched.off=" + r.off().size());
        assertThat(r.entersAfterFirstSwitch().get(TINY)).isPositive();
    }

    private static final String MANY = "io.sonde.agent.sample.BudgetManyApp$";
    private static final String ROOT = MANY + "Root.step";
    private static final String PINNED = MANY + "Pinned.keep";
    private static final String ONCE = MANY + "Cold.once";
    private static final String MARKER = MANY + "Cold.marker";

    private static String tiny(int i) {
        return MANY + "Tiny.t" + i;
    }

    /** The ENTERs of one {@code Root.step}, by probe; {@code start} is its ENTER's time. */
    record Step(long start, boolean afterMarker, Map<String, Long> enters) {}

    @Test
    void switchedOffProbesLeaveTheCodeStopRecordingAndTheSettledRunRecordsExactlyTheProbesLeftOn() throws Exception {
        Printed printed = launch(MANY + "*", "io.sonde.agent.sample.BudgetManyApp", "5", "budget=5,budget.pin=" + PINNED);
        List<Step> steps = new ArrayList<>();
        Step[] current = {null};
        boolean[] afterMarker = {false};
        long[] markerTime = {Long.MAX_VALUE};
        List<Map<String, Object>> events = scanLog(r -> {
            if (r.type() != Format.ENTER) return; // only the main thread runs monitored code
            String name = r.probeName();
            if (name.equals(MARKER)) {
                afterMarker[0] = true;
                markerTime[0] = r.time();
                current[0] = null; // not part of a step
            } else if (name.equals(ROOT)) {
                current[0] = new Step(r.time(), afterMarker[0], new HashMap<>());
                steps.add(current[0]);
            }
            if (current[0] != null) current[0].enters().merge(name, 1L, Long::sum);
        });
        String why = printed.stderr() + "\nevents: " + events;
        Set<String> tinies = new TreeSet<>();
        for (int i = 0; i < BudgetManyApp.CALLS.length; i++) tinies.add(tiny(i));

        // what was switched: only tiny methods, the hottest first; never the pinned or the cold ones
        Set<String> switched = probesOf(events);
        assertThat(switched).as(why).contains(tiny(0)).isSubsetOf(tinies);
        Map<String, Long> switchedAt = new HashMap<>(); // each probe's first switch
        for (Map<String, Object> e : events) switchedAt.merge((String) e.get("probe"), (Long) e.get("time"), Math::min);
        // the app's view agrees with the log: off = what the events report (t0 was switched on again by the app)
        Set<String> expectedOff = new TreeSet<>(switched);
        if (printed.on().contains(tiny(0))) expectedOff.remove(tiny(0));
        assertThat(printed.off()).as(why).isEqualTo(expectedOff);
        assertThat(printed.on()).contains(PINNED, ROOT, ONCE);
        // taken out of the code: the classes re-transformed without them
        assertThat(printed.lines("settled")).as(why).anyMatch(c -> c.matches("budget\\.rewoven\\.classes=[1-9].*"))
                .contains("budget.switched.off=" + printed.lines("settled").stream()
                        .filter(c -> c.startsWith("budget.off ")).count());

        List<Step> phase1 = steps.stream().filter(s -> !s.afterMarker()).toList();
        assertThat(phase1).as(why).hasSizeGreaterThan(10);
        // no record of a switched probe in any step that began after its switch (one step of slack
        // for the main thread to see the switch), in the first phase
        for (Map.Entry<String, Long> sw : switchedAt.entrySet()) {
            boolean slack = true;
            for (Step s : phase1) {
                if (s.start() <= sw.getValue()) continue;
                if (slack) {
                    slack = false;
                    continue;
                }
                assertThat(s.enters().getOrDefault(sw.getKey(), 0L)).as(sw.getKey() + " after its switch").isZero();
            }
        }
        // settled: the budget's last switch came before the first phase's last 5 steps, and each of
        // them recorded exactly the executions of the probes left on: the calls the program makes
        List<Step> last = phase1.subList(phase1.size() - 5, phase1.size());
        long lastSwitchBeforeMarker = events.stream().mapToLong(e -> (Long) e.get("time"))
                .filter(t -> t < markerTime[0]).max().orElseThrow();
        assertThat(lastSwitchBeforeMarker).as("the budget still switching at the end: " + why).isLessThan(last.get(0).start());
        Map<String, Long> expected = new HashMap<>();
        expected.put(ROOT, 1L);
        expected.put(ONCE, 1L);
        expected.put(PINNED, (long) BudgetManyApp.PINNED_CALLS);
        // only the switches of the first phase: after the marker the budget judges afresh and may
        // switch off more (under load its estimate can rise), which the first phase did not see
        Set<String> switchedInPhase1 = new TreeSet<>();
        for (Map.Entry<String, Long> sw : switchedAt.entrySet()) {
            if (sw.getValue() < markerTime[0]) switchedInPhase1.add(sw.getKey());
        }
        for (int i = 0; i < BudgetManyApp.CALLS.length; i++) {
            if (!switchedInPhase1.contains(tiny(i))) expected.put(tiny(i), (long) BudgetManyApp.CALLS[i]);
        }
        for (Step s : last) assertThat(s.enters()).as(why).isEqualTo(expected);
        // and the estimate of the settled state is within the budget
        double settledOverhead = printed.lines("settled").stream().filter(c -> c.startsWith("budget.overhead.percent="))
                .mapToDouble(c -> Double.parseDouble(c.substring(c.indexOf('=') + 1))).findFirst().orElseThrow();
        assertThat(settledOverhead).as(why).isLessThan(5.0);

        // the operator's switch on put t0 back into the code: it records again
        long t0After = steps.stream().filter(Step::afterMarker).mapToLong(s -> s.enters().getOrDefault(tiny(0), 0L)).sum();
        assertThat(steps.stream().filter(Step::afterMarker).count()).isEqualTo(BudgetManyApp.AFTER_ENABLE);
        assertThat(t0After).as(why).isPositive();
    }

    @Test
    void aLaterStartLeavesWhatTheBudgetSwitchedOffBeforeOutOfTheCodeAndReportsItAsSwitched() throws Exception {
        Path state = dir.resolve("state").resolve("budget.state");
        String options = "budget=5,budget.pin=" + IMPORTANT + ",budget.state=" + state;
        Printed first = launch(dir.resolve("first"), APP + "*", "io.sonde.agent.sample.BudgetApp", "3", options);
        Set<String> firstSwitched = probesOf(scanLog(dir.resolve("first"), r -> { }));
        assertThat(firstSwitched).as(first.stderr()).contains(TINY);
        // the file keeps exactly what the run reports switched off
        Set<String> kept = new TreeSet<>();
        for (String line : Files.readAllLines(state)) {
            if (!line.startsWith("#") && line.contains("\t")) kept.add(line.substring(0, line.indexOf('\t')));
        }
        assertThat(kept).isEqualTo(firstSwitched).isEqualTo(first.off());
        assertThat(first.lines("counter")).anyMatch(c -> c.startsWith("budget.state=" + state + " (none yet"))
                .anyMatch(c -> c.startsWith("budget.state.saved=" + kept.size() + " probe(s) kept"));

        String measured = Files.readAllLines(state).stream().filter(l -> l.startsWith("execution.pairs=")).findFirst().orElseThrow()
                .substring("execution.pairs=".length());

        Map<String, Long> enters = new HashMap<>();
        Printed second = launch(dir.resolve("second"), APP + "*", "io.sonde.agent.sample.BudgetApp", "3", options);
        List<Map<String, Object>> events = scanLog(dir.resolve("second"), r -> {
            if (r.type() == Format.ENTER) enters.merge(r.probeName(), 1L, Long::sum);
        });
        String why = second.stderr() + "\nevents: " + events;
        // never woven: no record at all, not even before a first step; the others are recorded
        for (String probe : kept) assertThat(enters.getOrDefault(probe, 0L)).as(probe + ": " + why).isZero();
        assertThat(enters.get(IMPORTANT)).as(why).isPositive();
        // and reported as switched off by the budget, with the earlier run's reason
        assertThat(probesOf(events)).as(why).containsAll(kept);
        for (Map<String, Object> e : events) {
            if (kept.contains((String) e.get("probe"))) {
                assertThat((String) e.get("reason")).contains("as it was in an earlier run (budget.state " + state)
                        .contains("then: over budget");
            }
        }
        assertThat(second.lines("counter")).as(why)
                .anyMatch(c -> c.startsWith("budget.state=" + state + " (" + kept.size() + " probe(s) left out of the code from the start"))
                .anyMatch(c -> c.startsWith("budget.off " + TINY + " executions="));
        assertThat(second.stderr()).contains(kept.size() + " probe(s) left out of the code from the start");
        assertThat(second.on()).doesNotContain(TINY);
        // the cost per execution the first run measured (if a step's experiment counted) is where the second starts
        if (measured.equals("none")) {
            assertThat(second.lines("counter")).noneMatch(c -> c.contains("of earlier runs from budget.state"));
        } else {
            assertThat(second.lines("counter")).as(why)
                    .anyMatch(c -> c.startsWith("budget.state=" + state + " (") && c.contains("one execution measured at "))
                    .anyMatch(c -> c.startsWith("budget.execution.ns=") && c.contains("of earlier runs from budget.state"));
        }
    }

    @Test
    void theCostPerExecutionAnEarlierRunMeasuredIsTheEstimateFromTheStart() throws Exception {
        // as a learning run writes it when a step's experiment counted (BudgetApp's steps leave too
        // few executions of the stayed probes for one): the tiny method off, one execution at 20
        // times the calibrated pair
        Path state = dir.resolve("measured.state");
        Files.writeString(state, "sonde-budget-state 2\nbudget=5\nwritten=2026-11-25T17:30:00Z\n"
                + "execution.pairs=20.000 weight=4000000 experiments=2\n"
                + TINY + "\t900000\t97.000\t30.0\t1.00\t220.000\tover budget (written by the test)\n");
        Printed printed = launch(APP + "*", "io.sonde.agent.sample.BudgetApp", "1", "budget=5,budget.pin=" + IMPORTANT + ",budget.state=" + state);
        List<String> counters = printed.lines("counter");
        assertThat(counters).as(printed.stderr())
                .anyMatch(c -> c.startsWith("budget.state=" + state + " (1 probe(s) left out of the code from the start")
                        && c.contains("one execution measured at 20.00 times the calibrated pair"));
        // budget.execution.ns=N ns (prior P, 0 experiment(s), 2 of earlier runs from budget.state): N = 20 P
        String cost = counters.stream().filter(c -> c.startsWith("budget.execution.ns=")).findFirst().orElseThrow();
        assertThat(cost).contains("2 of earlier runs from budget.state");
        double nanos = Double.parseDouble(cost.substring("budget.execution.ns=".length(), cost.indexOf(" ns")));
        double prior = Double.parseDouble(cost.substring(cost.indexOf("(prior ") + 7, cost.indexOf(", ")));
        assertThat(nanos).as(cost).isCloseTo(20 * prior, org.assertj.core.data.Offset.offset(0.1 * 20));
        // left out of the code, so never registered: neither on nor off in the probe list
        assertThat(printed.on()).contains(IMPORTANT).doesNotContain(TINY);
        assertThat(printed.off()).doesNotContain(TINY);
    }

    @Test
    void anUnreadableStateFileIsNamedWithItsProblemLeftAsItIsAndTheBudgetLearnsAfresh() throws Exception {
        Path state = dir.resolve("budget.state");
        String content = "sonde-budget-state 1\nbudget=5\nwritten=2026-11-25T17:30:00Z\n" + TINY + "\t12\tmany\t1\t2\t3\twhy\n";
        Files.writeString(state, content);
        Printed p = launch(dir.resolve("run"), APP + "*", "io.sonde.agent.sample.BudgetApp", "3",
                "budget=5,budget.pin=" + IMPORTANT + ",budget.state=" + state);
        assertThat(p.stderr()).contains("budget.state not used and left as it is: " + state + ":4: share 'many' is not a number");
        assertThat(Files.readString(state)).isEqualTo(content);
        // the budget works as without a state file
        assertThat(probesOf(scanLog(dir.resolve("run"), r -> { }))).as(p.stderr()).contains(TINY);
        assertThat(p.lines("counter")).anyMatch(c -> c.startsWith("budget.state=" + state + " (not used, not written:"));
    }

    @Test
    void trivialMethodsAreLeftOutWhenFirstWovenReportedAndAnOperatorPutsOneBack() throws Exception {
        Printed printed = launch(MANY + "*", "io.sonde.agent.sample.BudgetManyApp", "3",
                "budget=5,budget.trivial=on,budget.pin=" + PINNED);
        Map<String, Long> enters = new HashMap<>();
        List<Map<String, Object>> events = scanLog(r -> {
            if (r.type() == Format.ENTER) enters.merge(r.probeName(), 1L, Long::sum);
        });
        String why = printed.stderr() + "\nevents: " + events;
        // at most 6 bytes of bytecode: the six tiny ones (4-5 bytes), Cold.once (6), Cold.marker (1);
        // not the pinned one (4 bytes), not Root.step
        Set<String> trivial = new TreeSet<>();
        for (int i = 0; i < BudgetManyApp.CALLS.length; i++) trivial.add(tiny(i));
        trivial.add(ONCE);
        trivial.add(MARKER);
        Set<String> leftOut = new TreeSet<>();
        for (Map<String, Object> e : events) {
            if (((String) e.get("reason")).contains("left out of the code when first woven: a trivial method")) {
                leftOut.add((String) e.get("probe"));
                assertThat((String) e.get("reason")).contains("at most HotSpot's MaxTrivialSize of 6");
            }
        }
        assertThat(leftOut).as(why).isEqualTo(trivial);
        assertThat(printed.lines("counter")).as(why).contains("budget.trivial.left.out=" + trivial.size()
                + " (methods of at most 6 bytes of bytecode, left out of the code when first woven)");
        // never in the code: no record; except t0, which the app switched on again (back in the code)
        for (String t : trivial) {
            if (!t.equals(tiny(0))) assertThat(enters.getOrDefault(t, 0L)).as(t + ": " + why).isZero();
        }
        // (the budget judges it afresh and may switch it off again within the last steps)
        assertThat(enters.get(tiny(0))).as(why).isPositive();
        assertThat(enters.get(PINNED)).as(why).isPositive();
        assertThat(enters.get(ROOT)).as(why).isPositive();
    }
}
