package io.sonde.agent.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The budget's state file: what is written is read back, and a bad file is refused with its place and problem. */
class BudgetStateTest {
    @TempDir
    Path dir;

    @Test
    void aMissingFileIsAFirstStart() throws Exception {
        assertThat(BudgetState.read(dir.resolve("none.state"))).isNull();
    }

    @Test
    void whatIsWrittenIsReadBackForSeededRandomSwitches() throws Exception {
        Random random = new Random(19);
        for (int round = 0; round < 50; round++) {
            List<BudgetState.Entry> entries = new ArrayList<>();
            int n = random.nextInt(40);
            for (int i = 0; i < n; i++) {
                String probe = "com.acme.C" + random.nextInt(1000) + (random.nextBoolean() ? "$Inner" : "") + ".m" + i;
                BudgetController.Switch s = new BudgetController.Switch(probe, random.nextInt(1_000_000_000),
                        Math.round(random.nextDouble() * 100_000) / 1000.0, random.nextBoolean() ? -1 : random.nextInt(100_000),
                        Math.round(random.nextDouble() * 5000) / 100.0, Math.round(random.nextDouble() * 5000) / 1000.0);
                // reasons carry what prose does, tabs and line breaks included: they come back on one line
                String reason = "over budget:\tcost " + random.nextInt(500) + " %\nline two";
                entries.add(new BudgetState.Entry(s, reason));
            }
            double percent = 1 + random.nextInt(99) + (random.nextBoolean() ? 0.5 : 0);
            Instant written = Instant.ofEpochSecond(1_790_000_000L + random.nextInt(10_000_000));
            BudgetState.Measured measured = random.nextInt(4) == 0 ? null
                    : new BudgetState.Measured(1 + random.nextInt(50_000) / 1000.0, 1 + random.nextInt(100_000_000), 1 + random.nextInt(9));
            Path file = dir.resolve("sub" + round).resolve("budget.state");
            BudgetState.write(file, percent, written, measured, entries);

            BudgetState.Learned back = BudgetState.read(file);
            assertThat(back.percent()).isEqualTo(percent);
            assertThat(back.written()).isEqualTo(written);
            assertThat(back.measured()).isEqualTo(measured);
            assertThat(back.entries()).hasSize(n);
            for (int i = 0; i < n; i++) {
                assertThat(back.entries().get(i).figures()).isEqualTo(entries.get(i).figures());
                assertThat(back.entries().get(i).reason()).isEqualTo(entries.get(i).reason().replace('\t', ' ').replace('\n', ' '));
            }
            assertThat(Files.list(file.getParent())).as("no temporary file left").containsExactly(file);
        }
    }

    @Test
    void aBadFileIsRefusedNamingTheLineAndTheProblem() throws Exception {
        String header = BudgetState.MAGIC + "\nbudget=5\nwritten=2026-11-25T17:30:00Z\nexecution.pairs=none\n";
        assertRefused("sonde-budget-state 3\n", ":1: not a budget state file of this version");
        assertRefused(BudgetState.MAGIC + "\nbudget=5\nwritten=2026-11-25T17:30:00Z\n", "ends before its header");
        assertRefused(BudgetState.MAGIC + "\nbudget=5\nwritten=2026-11-25T17:30:00Z\nexecution.pairs=12\n",
                ":4: expected execution.pairs=PAIRS weight=EXECUTIONS experiments=N");
        assertRefused(BudgetState.MAGIC + "\nbudget=5\nwritten=2026-11-25T17:30:00Z\nexecution.pairs=12 weight=x experiments=1\n",
                ":4: weight 'x' is not a number");
        assertRefused(BudgetState.MAGIC + "\nbudget=5\nwritten=2026-11-25T17:30:00Z\nexecution.pairs=-3 weight=10 experiments=1\n",
                ":4: execution.pairs, weight and experiments must be above 0");
        assertRefused(BudgetState.MAGIC + "\nbudget=five\n", ":2: budget 'five' is not a number");
        assertRefused(BudgetState.MAGIC + "\nbudget=0\n", ":2: budget must be above 0");
        assertRefused(BudgetState.MAGIC + "\npercent=5\n", ":2: expected budget=");
        assertRefused(BudgetState.MAGIC + "\nbudget=5\nwritten=yesterday\n", ":3: written is not an instant");
        assertRefused(BudgetState.MAGIC + "\nbudget=5\n", "ends before its header");
        assertRefused(header + "# comment\ncom.acme.A.m\t1\t2\t3\t4\n", ":6: expected 7 tab-separated fields");
        assertRefused(header + "com.acme.A.m\tmany\t1\t2\t3\t4\twhy\n", ":5: executions 'many' is not a whole number");
        assertRefused(header + "com.acme.A.m\t1\t1\tNaN\t3\t4\twhy\n", ":5: mean_ns 'NaN' is not a number");
        assertRefused(header + "nodot\t1\t1\t2\t3\t4\twhy\n", ":5: 'nodot' is not a probe name");
    }

    @Test
    void aVersion1FileWithoutTheExecutionCostIsStillRead() throws Exception {
        Path file = dir.resolve("v1.state");
        Files.writeString(file, BudgetState.MAGIC_1 + "\nbudget=5\nwritten=2026-11-25T17:30:00Z\n"
                + "com.acme.A.m\t12\t40.5\t30.0\t3.00\t55.000\tover budget\n", StandardCharsets.UTF_8);
        BudgetState.Learned back = BudgetState.read(file);
        assertThat(back.measured()).isNull();
        assertThat(back.entries()).extracting(e -> e.figures().probe()).containsExactly("com.acme.A.m");
        assertRefused(BudgetState.MAGIC_1 + "\nbudget=5\n", "ends before its header (" + BudgetState.MAGIC_1);
    }

    private void assertRefused(String content, String problem) throws Exception {
        Path file = dir.resolve("bad.state");
        Files.writeString(file, content, StandardCharsets.UTF_8);
        assertThatThrownBy(() -> BudgetState.read(file)).isInstanceOf(BudgetState.Unreadable.class)
                .hasMessageStartingWith(file.toString()).hasMessageContaining(problem);
    }
}
