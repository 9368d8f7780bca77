package io.sonde.agent.sample;

import io.sonde.agent.sample.optional.OptionalDependency;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A class whose field and some method signatures mention a type of an optional dependency that is
 * absent at run time: the methods that mention it are never called, the others are. Prints
 * "ready" after its work and ends on "stop" from stdin.
 */
public final class OptionalUserApp {

    private static OptionalDependency cached; // never assigned: the dependency is optional
    private Object value; // holds an OptionalDependency when the library is there (as H2's ValueGeometry)

    private OptionalUserApp() {}

    public static void main(String[] args) throws Exception {
        int sum = 0;
        OptionalUserApp app = new OptionalUserApp();
        for (int i = 0; i < 10; i++) {
            sum += app.work(i);
        }
        System.out.println("ready " + sum + " " + name());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.equals("stop")) {
            // wait
        }
        System.out.println("done");
    }

    int work(int i) {
        return cached == null ? i * 2 : i + size(cached);
    }

    static String name() {
        return "optional";
    }

    /** Takes the optional type: never called without the dependency. */
    static int size(OptionalDependency d) {
        return d.size();
    }

    /**
     * Returns the optional type: never called without the dependency. An instance method returning
     * a missing type made the whole class fail to weave before (Byte Buddy resolved the return type).
     */
    OptionalDependency dependency() {
        return (OptionalDependency) value;
    }
}
