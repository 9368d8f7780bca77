package io.sonde.sim.validate;

import io.sonde.sim.model.MiddlewareModel;
import io.sonde.sim.model.SimulationResult;
import io.sonde.sim.profile.CalibrationProfile;

/** Developer tool: prints all measures of the thread-pool validation set-up. Args: key=value overrides. */
public final class PoolProbe {
    public static void main(String[] args) {
        CalibrationProfile p = CalibrationProfile.defaultProfile();
        String table = "5.1";
        for (String a : args) {
            String[] kv = a.split("=", 2);
            if (kv[0].equals("table")) { table = kv[1]; continue; }
            p = p.with(kv[0], kv[1]);
        }
        Validator v = new Validator(new Validator.Settings(p, 3, 1, 6000, 200, 45_000));
        int[] xs = table.equals("5.1") ? new int[] {1, 2, 4, 6, 8, 10} : new int[] {1, 2, 4, 8, 16, 32, 64};
        for (int x : xs) {
            SimulationResult r = MiddlewareModel.run(v.config(table, x));
            StringBuilder sb = new StringBuilder(x + ":");
            for (String k : MiddlewareModel.KEYS) {
                if (r.get(k) != null && !k.equals("events_per_s")) sb.append(String.format(" %s=%.2f", k.replace("_ms", ""), r.mean(k)));
            }
            System.out.println(sb);
        }
    }
}
