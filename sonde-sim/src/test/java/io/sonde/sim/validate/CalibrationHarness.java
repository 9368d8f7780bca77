package io.sonde.sim.validate;

import io.sonde.sim.profile.CalibrationProfile;
import java.util.List;

/** Developer tool (not a test): prints the validation per row. Args: key=value overrides. */
public final class CalibrationHarness {
    public static void main(String[] args) {
        CalibrationProfile p = CalibrationProfile.defaultProfile();
        String only = null;
        int reps = 4;
        int openRequests = 6000;
        for (String a : args) {
            String[] kv = a.split("=", 2);
            if (kv[0].equals("only")) { only = kv[1]; continue; }
            if (kv[0].equals("reps")) { reps = Integer.parseInt(kv[1]); continue; }
            if (kv[0].equals("open")) { openRequests = Integer.parseInt(kv[1]); continue; }
            p = p.with(kv[0], kv[1]);
        }
        Validator v = new Validator(new Validator.Settings(p, reps, 1, openRequests, 200, 45_000));
        List<Validator.TableResult> res = v.run();
        for (Validator.TableResult r : res) {
            if (only != null && !only.contains(r.table())) continue;
            for (int i = 0; i < r.rows().size(); i++) {
                ThesisTables.Row row = r.rows().get(i);
                String extra = "";
                if (row.table().compareTo("5.5") >= 0 && System.getenv("SERVER") != null) {
                    io.sonde.sim.model.SimulationResult sr = io.sonde.sim.model.MiddlewareModel.run(v.config(row.table(), row.x()));
                    extra = String.format(" server=%8.2f util=%.2f", sr.mean("server_response_ms"), sr.mean("cpu_utilization"));
                }
                System.out.printf("%s %-22s %3d exp=%8.2f daps=%8.2f sonde=%8.2f (±%.2f)%s%n", row.table(), row.measure(), row.x(),
                        row.experiment(), row.dapsL24(), r.sonde()[i], r.sondeCi()[i], extra);
            }
        }
        System.out.println(Validator.report(res, p));
    }
}
