package io.sonde.sim.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.sonde.sim.profile.CalibrationProfile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fitter of the calibration profile: training rows only, coupled parameters, descent that cannot get worse. */
class ProfileFitterTest {

    private static final CalibrationProfile P = CalibrationProfile.defaultProfile();

    @Test
    void coupledParametersKeepTheirSumOrStayEqual() {
        ProfileFitter f = ProfileFitter.standard();
        Map<String, Double> x = new LinkedHashMap<>();
        for (ProfileFitter.Parameter p : f.parameters()) {
            x.put(p.key(), p.start());
        }
        x.put("b_rec_ms", 0.3);
        x.put("b_disp_ms", 0.4);
        CalibrationProfile q = f.apply(P, x);
        // 5.3.2's receiver CPU: b_rec + b_enqueue stays 0.89 ms
        assertThat(q.number("b_rec_ms") + q.number("b_enqueue_ms")).isCloseTo(0.89, within(1e-9));
        assertThat(q.number("b_reply_ms")).isEqualTo(0.4);
    }

    @Test
    void startingValuesLieWithinTheirBoundsAndSayWhereTheyComeFrom() {
        for (ProfileFitter.Parameter p : ProfileFitter.defaultParameters()) {
            assertThat(p.start()).as(p.key()).isBetween(p.min(), p.max());
            assertThat(p.round(p.start())).as(p.key()).isCloseTo(p.start(), within(p.resolution()));
            assertThat(p.why()).as(p.key()).isNotBlank();
            assertThat(P.values()).as(p.key()).containsKey(p.key());
            assertThat(P.fittedParameters()).as("the profile lists %s as fitted", p.key()).contains(p.key());
        }
    }

    @Test
    void objectiveIsTheMeanTrainingErrorOverTheTablesAndIgnoresHeldOutRows() {
        ProfileFitter f = new ProfileFitter(ProfileFitter.defaultParameters(), 2, 1000, 1);
        double objective = f.objective(P);
        List<Validator.TableResult> res = new Validator(new Validator.Settings(P, 2, ProfileFitter.FIT_SEED, 1000, 200, 45_000)).run();
        double sum = 0;
        for (Validator.TableResult r : res) {
            List<ThesisTables.Row> rows = new ArrayList<>();
            List<Double> predicted = new ArrayList<>();
            for (int i = 0; i < r.rows().size(); i++) {
                if (r.rows().get(i).training()) {
                    rows.add(r.rows().get(i));
                    predicted.add(r.sonde()[i]);
                }
            }
            sum += ThesisTables.meanAbsRelError(rows, predicted.stream().mapToDouble(Double::doubleValue).toArray());
        }
        assertThat(res).hasSize(7);
        assertThat(objective).isCloseTo(sum / 7, within(1e-12));
    }

    @Test
    void oneSweepNeverEndsAboveItsStartAndMovesAParameterStartedFarOff() {
        // a network delay started at its 2 ms bound (the fitted one is far lower): of the candidates 3.5
        // (clamped to 2, the start: not evaluated) and 0.5 ms, the lower one must win
        ProfileFitter.Parameter net = new ProfileFitter.Parameter("network_request_ms", 2.0, 1.5, 0.01, 2, 0.005, null, 0, 0, "test");
        ProfileFitter f = new ProfileFitter(List.of(net), 2, 1000, 1);
        List<String> log = new ArrayList<>();
        ProfileFitter.Result r = f.fit(P, log::add);
        assertThat(r.objective()).isLessThan(r.startObjective());
        assertThat(r.values().get("network_request_ms")).isEqualTo(0.5);
        assertThat(r.evaluations()).isEqualTo(2);
        assertThat(log).anyMatch(l -> l.contains("network_request_ms = 0.5 "));
        assertThat(f.properties(r)).contains("network_request_ms=0.5" + System.lineSeparator())
                .contains("fitted_on=the training rows of Tables 5.1-5.7 only");
    }

    @Test
    void badSettingsAreRejectedNamingTheProblem() {
        assertThatThrownBy(() -> new ProfileFitter(List.of(), 3, 6000, 8)).hasMessageContaining("need parameters");
        assertThatThrownBy(() -> new ProfileFitter(ProfileFitter.defaultParameters(), 1, 6000, 8)).hasMessageContaining("replications");
    }
}
