package io.sonde.sim.scenario;

import java.nio.file.Path;

/** Developer tool: runs a scenario file. Args: file variant rate [replications]. */
public final class ScenarioProbe {
    public static void main(String[] a) {
        long t0 = System.nanoTime();
        var r = ScenarioRunner.run(ScenarioFile.read(Path.of(a[0])),
                new ScenarioRunner.Options(a[1], Double.parseDouble(a[2]), 1, a.length > 3 ? Integer.parseInt(a[3]) : 4, null, null, null));
        System.out.println(r.toTable());
        System.out.printf("wall %.1f s%n", (System.nanoTime() - t0) / 1e9);
    }
}
