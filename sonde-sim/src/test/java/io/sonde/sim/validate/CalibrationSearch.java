package io.sonde.sim.validate;

import io.sonde.sim.profile.CalibrationProfile;
import io.sonde.sim.random.RandomStream;
import java.util.List;

/**
 * Developer tool (not a test): random local search of a few profile parameters, minimising the
 * worst ratio of Sonde's error to DAPS L24's error on the training rows of Tables 5.1-5.7. Args: iterations,
 * tables (e.g. 5.1,5.2), then parameter names to vary.
 */
public final class CalibrationSearch {
    public static void main(String[] args) {
        int iters = Integer.parseInt(args[0]);
        String tables = args[1];
        String[] keys = java.util.Arrays.copyOfRange(args, 2, args.length);
        CalibrationProfile best = CalibrationProfile.defaultProfile();
        for (String kv : System.getProperty("set", "").split(",")) {
            if (!kv.isBlank()) {
                String[] p = kv.split("=", 2);
                best = best.with(p[0], p[1]);
            }
        }
        double bestScore = score(best, tables);
        System.out.println("start " + bestScore);
        RandomStream rnd = new RandomStream(7);
        for (int i = 0; i < iters; i++) {
            CalibrationProfile cand = best;
            int changes = 1 + rnd.nextInt(2);
            for (int c = 0; c < changes; c++) {
                String k = keys[rnd.nextInt(keys.length)];
                double v = best.number(k);
                double nv = Math.max(0, v * (0.7 + 0.6 * rnd.nextDouble()) + (rnd.nextDouble() - 0.5) * 0.02);
                cand = cand.with(k, Math.round(nv * 10000) / 10000.0);
            }
            double s = score(cand, tables);
            if (s < bestScore) {
                bestScore = s;
                best = cand;
                StringBuilder sb = new StringBuilder();
                for (String k : keys) sb.append(k).append('=').append(best.number(k)).append(' ');
                System.out.printf("%d %.4f %s%n", i, s, sb);
            }
        }
    }

    static double score(CalibrationProfile p, String tables) {
        Validator v = new Validator(new Validator.Settings(p, 3, 11, 4000, 200, 45_000));
        List<Validator.TableResult> res = v.runTables(tables);
        double worst = 0, sum = 0;
        for (Validator.TableResult r : res) {
            double ratio = r.training().sonde() / r.training().daps();
            worst = Math.max(worst, ratio);
            sum += ratio;
        }
        return worst + 0.1 * sum;
    }
}
