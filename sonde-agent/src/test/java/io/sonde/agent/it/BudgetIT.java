package io.sonde.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.testing.AgentJvm;
import io.sonde.format.Format;
import io.sonde.format.read.AgentLog;
import io.sonde.format.read.SondeLogs;
import io.sonde.format.read.SondeReader;
import java.io.IOException;
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

    private Run run(String budgetOptions) throws Exception {
        // block-forever: the run checks written == produced, which the default bounded wait does not promise under load
        String options = "include=" + APP + "*,file.dir=" + dir + ",budget.interval.ms=250,policy=block-forever," + budgetOptions;
        Set<String> off = new TreeSet<>();
        Set<String> on = new TreeSet<>();
        List<String> counters = new ArrayList<>();
        String stderr;
        try (AgentJvm p = AgentJvm.start(options, AgentProcess.TEST_CLASSES, "io.sonde.agent.sample.BudgetApp", "3")) {
            String line;
            while (!(line = p.awaitLine("")).equals("done")) {
                if (line.startsWith("probe ")) {
                    String[] f = line.split(" +"); // probe on|off id name signature
                    (f[1].equals("on") ? on : off).add(f[3]);
                } else if (line.startsWith("counter ")) {
                    counters.add(line.substring(8));
                }
            }
            assertThat(p.awaitExit()).as(p.stderr()).isZero();
            stderr = p.stderr();
        }
        List<Map<String, Object>> events = new ArrayList<>();
        Map<String, Long> enters = new HashMap<>();
        Map<String, Long> after = new HashMap<>();
        List<AgentLog> logs = SondeLogs.scan(dir);
        assertThat(logs).hasSize(1);
        try (SondeReader r = logs.get(0).open()) {
            long firstSwitch = Long.MAX_VALUE;
            while (r.next()) {
                if (r.type() == Format.EVENT && r.eventType().name().equals("sonde.budget.switch")) {
                    Map<String, Object> e = new HashMap<>();
                    for (int i = 0; i < r.eventType().fieldCount(); i++) e.put(r.eventType().fieldName(i), r.fieldValue(i));
                    events.add(e);
                    firstSwitch = Math.min(firstSwitch, r.time());
                } else if (r.type() == Format.ENTER) {
                    enters.merge(r.probeName(), 1L, Long::sum);
                    // a switch takes effect at the next enter; 50 ms is slack for the thread to see it
                    if (firstSwitch != Long.MAX_VALUE && r.time() - firstSwitch > 50_000_000L) after.merge(r.probeName(), 1L, Long::sum);
                }
            }
            assertThat(r.end().complete()).as(String.valueOf(r.end())).isTrue();
            assertThat(r.trailer().written()).isEqualTo(r.trailer().produced());
        }
        return new Run(off, on, counters, events, after, enters, stderr);
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
    void aPinnedProbeStaysOnEvenWhenItIsWhatCostsTheBudgetSwitchesOffOnlyOthersAndReportsThem() throws Exception {
        Run r = run("budget=1,budget.pin=" + APP + "Hot.*");
        assertThat(r.off()).as(r.stderr()).doesNotContain(TINY);
        assertThat(r.on()).contains(TINY);
        assertThat(probesOf(r.events())).isEqualTo(r.off());
        assertThat(r.off()).isNotEmpty().isSubsetOf(Set.of(IMPORTANT, RARE));
        assertThat(r.counters()).contains("budget.switched.off=" + r.off().size());
        assertThat(r.entersAfterFirstSwitch().get(TINY)).isPositive();
    }
}
