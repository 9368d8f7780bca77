package io.sonde.agent.sample;

import io.sonde.agent.sample.optional.OptionalNumber;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Holds a class that is loaded but can never be linked while the optional dependency is absent
 * ({@link Unlinkable}: its verifier needs {@link OptionalNumber}), beside classes that work. Prints
 * "ready" once both are loaded; then each "tick" line calls {@link #tick} and prints "ticked N";
 * ends on "stop".
 */
public final class UnlinkableApp {

    private UnlinkableApp() {}

    public static void main(String[] args) throws Exception {
        ClassLoader loader = UnlinkableApp.class.getClassLoader();
        Class.forName(UnlinkableApp.class.getName() + "$Unlinkable", false, loader); // loaded, not linked
        String linking;
        try {
            Class.forName(UnlinkableApp.class.getName() + "$Unlinkable", true, loader);
            linking = "linked";
        } catch (LinkageError e) {
            linking = "unlinkable";
        }
        int n = Helper.twice(0);
        System.out.println("ready " + linking);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.equals("stop")) {
            if (line.equals("tick")) {
                n = tick(n);
                System.out.println("ticked " + n);
            }
        }
        System.out.println("done");
    }

    static int tick(int n) {
        return Helper.twice(n) + 1;
    }

    /** Works: woven at attach. */
    static final class Helper {
        static int twice(int n) {
            return 2 * n;
        }
    }

    /** Cannot be linked without the optional dependency (the return needs OptionalNumber to be a Number). */
    static final class Unlinkable {
        static Number asNumber(OptionalNumber n) {
            return n;
        }
    }
}
