package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sonde.agent.testing.AgentJvm;
import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.input.LogSource;
import io.sonde.analysis.tree.JoinedTree;
import io.sonde.analysis.tree.ThreadInfo;
import io.sonde.analysis.tree.TraceTree;
import io.sonde.analysis.tree.TreeNode;
import io.sonde.cli.testapp.HandoffRequests;


import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18's acceptance: a real JVM under the agent whose requests each use a pool, {@code
 * supplyAsync} and {@code schedule} analyses to exactly one joined trace per request (plus the
 * task submitted outside any trace, a root of its own), zero unlinked pieces, and a positive
 * hand-off wait on every hand-off edge; each joined tree is what the program did.
 */
class JoinedTracesAgentRunTest {
    private static final String APP = HandoffRequests.class.getName();
    private static final String REQUEST = APP + "$Request.";
    private static final String WORK = APP + "$Work.";

    @TempDir
    Path dir;

    @Test
    void everyRequestIsOneJoinedTreeAcrossThreadsWithItsHandOffWaits() throws Exception {
        Path logs = dir.resolve("logs");
        try (AgentJvm p = AgentJvm.start("include=" + APP + "$*,file.dir=" + logs, "target/test-classes", APP + "Main")) {
            p.awaitLine("done");
            assertThat(p.awaitExit()).as("exit code; stderr: %s", p.stderr()).isZero();
        }
        AnalysisOptions o = new AnalysisOptions();
        o.keepTrees = 1000;
        AnalysisResult r = Analyzer.run(new LogSource(List.of(logs)), o);
        int n = HandoffRequests.REQUESTS;
        assertThat(r.problems()).isEmpty();
        assertThat(r.counters().joinedTraces).as("one per request, and the task handed over outside any trace").isEqualTo(n + 1);
        assertThat(r.counters().unlinkedPieces).isZero();
        assertThat(r.counters().linkedPieces).isEqualTo(3L * n);
        assertThat(r.counters().handoffs).isEqualTo(3L * n);
        assertThat(r.counters().traces).isEqualTo(4L * n + 1);

        List<JoinedTree> requests = new ArrayList<>();
        List<JoinedTree> roots = new ArrayList<>();
        for (JoinedTree j : r.joinedTrees()) {
            assertThat(j.unlinked()).isFalse();
            (j.root().root().operation().name().equals(REQUEST + "handle") ? requests : roots).add(j);
        }
        assertThat(requests).hasSize(n);
        for (JoinedTree j : requests) {
            assertThat(j.pieces()).hasSize(4);
            assertThat(j.nodeCount()).as("handle, 3 hand-off methods, 3 pieces of 2").isEqualTo(10);
            Set<Long> threads = new HashSet<>();
            for (ThreadInfo t : j.threads()) threads.add(t.threadId());
            assertThat(threads).as("main, a pool thread, an async thread, the scheduler thread: %s", j.threads()).hasSize(4);
            List<String> shape = new ArrayList<>();
            for (JoinedTree.Row row : j.rows()) {
                if (row.node() == null) continue;
                shape.add(row.depth() + (row.handoff() != null ? " => " : " ") + row.node().operation().name());
                if (row.handoff() != null) {
                    TraceTree piece = row.handoff();
                    assertThat(piece.handedOff()).isTrue();
                    assertThat(piece.handoffWaitNanos()).as("wait of %s", row.node().operation().name()).isPositive();
                    assertThat(piece.thread().name()).isNotEqualTo("main");
                }
            }
            assertThat(shape).containsExactly(
                    "0 " + REQUEST + "handle",
                    "1 " + REQUEST + "viaPool", "2 => " + WORK + "pooled", "3 " + WORK + "leaf",
                    "1 " + REQUEST + "viaSupplyAsync", "2 => " + WORK + "supplied", "3 " + WORK + "leaf",
                    "1 " + REQUEST + "viaSchedule", "2 => " + WORK + "scheduled", "3 " + WORK + "leaf");
            // the scheduled task waited at least the 1 ms delay it was scheduled with
            TreeNode schedule = j.root().root().children().get(2);
            assertThat(schedule.handoffs().get(0).handoffWaitNanos()).isGreaterThanOrEqualTo(1_000_000L);
        }
        assertThat(roots).singleElement().satisfies(j -> {
            assertThat(j.root().root().operation().name()).isEqualTo(WORK + "outside");
            assertThat(j.root().parentTraceId()).isZero();
            assertThat(j.root().handedOff()).isFalse();
        });
        assertThat(r.statistics().all()).filteredOn(s -> s.operation().name().startsWith(WORK) && !s.operation().name().endsWith("leaf"))
                .allSatisfy(s -> {
                    if (s.operation().name().endsWith("outside")) {
                        assertThat(s.handoffs()).isZero();
                    } else {
                        assertThat(s.handoffs()).isEqualTo(n);
                        assertThat(s.handoffWait().percentile(50)).isPositive();
                    }
                });

        // the JSON contract of `sonde analyze DIR --json F`
        Path json = dir.resolve("a.json");
        Object[] run = CliRun.run("analyze", logs.toString(), "--no-progress", "--trees", "5", "--json", json.toString());
        int code = (Integer) run[0];
        String report = (String) run[1];
        assertThat(code).as(report).isZero();
        assertThat(report).contains("Joined traces across threads: " + (n + 1)).contains("unlinked pieces (parent not in the log): 0")
                .contains("=> " + WORK + "pooled").contains("Hand-off wait (us)");
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.get("counters").get("joinedTraces").asLong()).isEqualTo(n + 1);
        assertThat(root.get("counters").get("unlinkedPieces").asLong()).isZero();
        int handedOff = 0;
        for (JsonNode t : root.get("trees")) {
            assertThat(t.has("parentTraceId")).isTrue();
            assertThat(t.has("parentOrderIndex")).isTrue();
            if (t.get("parentTraceId").asLong() != 0) {
                assertThat(t.get("handoffWaitNanos").asLong()).isPositive();
                handedOff++;
            } else {
                assertThat(t.has("handoffWaitNanos")).isFalse();
            }
        }
        assertThat(handedOff).isEqualTo(15); // 5 requests kept, 3 hand-offs each
    }
}
