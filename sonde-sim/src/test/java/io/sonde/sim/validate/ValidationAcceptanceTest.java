package io.sonde.sim.validate;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.sim.profile.CalibrationProfile;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acceptance criterion of the models, on the held-out rows of the declared split
 * ({@link ThesisTables}): with the default calibration profile, Sonde's mean absolute relative
 * error on the held-out rows of each of Tables 5.1-5.7 is not above the error of the thesis' own
 * simulator (DAPS L24) on the same rows by more than the experiment's own scatter (1.9 %), except on
 * the tables of {@link #KNOWN_WORSE}, where the test insists that the miss is still there. The
 * errors are recomputed here from the simulated values and the transcribed measurements. Runs the
 * quick settings of {@code sonde validate-model} (deterministic for its seed). The profile's values
 * were fitted on the training rows only ({@link ProfileFitter}, docs/simulator.md, "Validation"), so
 * this judges rows the fit never saw.
 */
class ValidationAcceptanceTest {

    /**
     * Tables on which the refitted one-clock profile misses the criterion, reported rather than
     * hidden: Table 5.6 (thread-per-client, 5 ms CPU), whose low CPU per request under load the
     * {@code cpu} servant clock cannot reproduce (docs/simulator.md, "Validation"). The fit chose that
     * clock on the training rows; the per-series clock that passed here before was dropped (issue 13).
     */
    static final java.util.Set<String> KNOWN_WORSE = java.util.Set.of("5.6");

    @TempDir
    Path dir;

    @Test
    void thesisTablesAreLoadedCompletely() {
        ThesisTables t = ThesisTables.load();
        assertThat(t.byTable()).containsOnlyKeys("5.1", "5.2", "5.3", "5.4", "5.5", "5.6", "5.7");
        assertThat(t.rows()).hasSize(12 + 12 + 12 + 6 + 9 + 9 + 9);
        // DAPS L24's errors computed from the transcribed columns.
        assertThat(ThesisTables.dapsError(t.byTable().get("5.4"))).isBetween(0.025, 0.035);
        assertThat(ThesisTables.dapsError(t.byTable().get("5.1"))).isBetween(0.29, 0.31);
    }

    @Test
    void theDeclaredSplitLeavesEveryTableAndMeasureHeldOutRows() {
        ThesisTables t = ThesisTables.load();
        for (ThesisTables.Row r : t.rows()) {
            boolean pool = r.table().compareTo("5.5") < 0;
            List<Integer> trainingX = pool ? List.of(1, 4, 8) : List.of(1, 4, 12, 32, 64);
            assertThat(r.training()).as("%s %s x=%d", r.table(), r.measure(), r.x()).isEqualTo(trainingX.contains(r.x()));
        }
        assertThat(ThesisTables.select(t.rows(), true)).hasSize(6 + 6 + 6 + 3 + 5 + 5 + 5);
        assertThat(ThesisTables.select(t.rows(), false)).hasSize(6 + 6 + 6 + 3 + 4 + 4 + 4);
        // independent data points: Tables 5.3 and 5.4 are derived from 5.1-5.2's runs
        assertThat(Validator.dataPoints(t.rows(), null)).isEqualTo(12 + 12 + 27);
        assertThat(Validator.dataPoints(t.rows(), true)).isEqualTo(6 + 6 + 15);
    }

    @Test
    void tieThresholdIsTheScatterOfTable57BelowSaturation() {
        // Table 5.7 with 1-16 clients: one set-up, six measurements (63.42-67.83 ms).
        double[] v = ThesisTables.load().rows().stream().filter(r -> r.table().equals("5.7") && r.x() <= 16)
                .mapToDouble(ThesisTables.Row::experiment).toArray();
        assertThat(v).hasSize(6);
        double mean = java.util.Arrays.stream(v).average().orElseThrow();
        double dev = java.util.Arrays.stream(v).map(x -> Math.abs(x - mean) / mean).average().orElseThrow();
        assertThat(ThesisTables.MEASUREMENT_SCATTER).isCloseTo(dev, org.assertj.core.data.Offset.offset(0.001));
    }

    @Test
    void defaultProfileListsItsFittedParametersAndTheyExist() {
        CalibrationProfile p = CalibrationProfile.defaultProfile();
        assertThat(p.fittedParameters()).hasSize(15).doesNotHaveDuplicates();
        assertThat(Validator.fittedOn(p)).startsWith("the training rows of Tables 5.1-5.7 only");
        // one servant clock for every table: no per-series key
        assertThat(p.values().keySet()).noneMatch(k -> k.contains("section53"));
        for (String k : p.fittedParameters()) {
            assertThat(p.values()).as("fitted parameter %s", k).containsKey(k);
        }
    }

    @Test
    void sondeHeldOutErrorIsNotWorseThanDapsBeyondTheScatter() throws Exception {
        List<Validator.TableResult> results = new Validator(Validator.Settings.quick(CalibrationProfile.defaultProfile())).run();
        String report = Validator.report(results, CalibrationProfile.defaultProfile());
        assertThat(results).hasSize(7);
        assertThat(ValidationPlots.write(results, dir)).hasSize(7).allMatch(p -> p.toFile().length() > 1000);
        for (Validator.TableResult r : results) {
            double sonde = 0;
            double daps = 0;
            int n = 0;
            for (int i = 0; i < r.rows().size(); i++) {
                ThesisTables.Row row = r.rows().get(i);
                if (!row.training()) {
                    sonde += Math.abs(r.sonde()[i] - row.experiment()) / row.experiment();
                    daps += Math.abs(row.dapsL24() - row.experiment()) / row.experiment();
                    n++;
                }
            }
            assertThat(n).as("Table %s held-out rows", r.table()).isPositive();
            if (KNOWN_WORSE.contains(r.table())) {
                // the known miss stays visible: when it is fixed this fails, and the table leaves KNOWN_WORSE
                assertThat(sonde / n).as("Table %s held-out error (known worse)\n%s", r.table(), report)
                        .isGreaterThan(daps / n + ThesisTables.MEASUREMENT_SCATTER);
                continue;
            }
            assertThat(sonde / n).as("Table %s held-out error\n%s", r.table(), report)
                    .isLessThanOrEqualTo(daps / n + ThesisTables.MEASUREMENT_SCATTER);
        }
    }
}
