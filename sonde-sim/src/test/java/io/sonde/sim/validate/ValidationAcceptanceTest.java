package io.sonde.sim.validate;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.sim.profile.CalibrationProfile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acceptance criterion of the models: with the default calibration profile, Sonde's mean
 * absolute relative error on each of Tables 5.1-5.7 is at or below the error of the thesis' own
 * simulator (DAPS L24) on the same rows. Runs the quick settings of {@code sonde validate-model}
 * (deterministic for its seed).
 *
 * <p>Two tables do NOT meet it yet (see docs/simulator.md, "Validation"): 5.6 (thread-per-client,
 * 5 ms exponential servant CPU), where the measurements imply less CPU per request under load than
 * with one client, and 5.7 (50 ms delay), where the measured knee between 32 and 64 clients is
 * sharper than the model's. For those the test pins the current error so that it cannot silently
 * get worse; when a change brings them under DAPS' error, move them to the accepted set.
 */
class ValidationAcceptanceTest {

    /** Tables that miss the criterion today, with the error the model must not exceed. */
    private static final Map<String, Double> KNOWN_GAPS = Map.of("5.6", 0.19, "5.7", 0.025);

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
    void sondeErrorIsAtOrBelowDapsOnEveryTableExceptTheKnownGaps() throws Exception {
        List<Validator.TableResult> results = new Validator(Validator.Settings.quick(CalibrationProfile.defaultProfile())).run();
        String report = Validator.report(results);
        assertThat(results).hasSize(7);
        assertThat(ValidationPlots.write(results, dir)).hasSize(7).allMatch(p -> p.toFile().length() > 1000);
        for (Validator.TableResult r : results) {
            Double gap = KNOWN_GAPS.get(r.table());
            if (gap == null) {
                assertThat(r.sondeError()).as("Table %s\n%s", r.table(), report).isLessThanOrEqualTo(r.dapsError());
            } else {
                assertThat(r.sondeError()).as("Table %s (known gap)\n%s", r.table(), report).isLessThanOrEqualTo(gap);
            }
        }
    }
}
