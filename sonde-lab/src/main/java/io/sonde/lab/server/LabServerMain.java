package io.sonde.lab.server;

import java.io.IOException;
import java.io.InputStream;

/**
 * Runs a {@link LabServer} as its own JVM (the lab's sweeps start it so): {@code --strategy S
 * [--pool N] [--port P]}. Prints {@code LISTENING <port>} on stdout once it accepts connections
 * and runs until its stdin is closed, then exits normally (so an agent's shutdown hook writes the
 * end of its trace).
 */
public final class LabServerMain {
    private LabServerMain() {}

    public static void main(String[] args) throws IOException {
        ServerStrategy strategy = null;
        int pool = 0;
        int port = 0;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) {
                fail("option " + a + " needs a value");
            }
            String v = args[++i];
            try {
                switch (a) {
                    case "--strategy" -> strategy = ServerStrategy.parse(v);
                    case "--pool" -> pool = Integer.parseInt(v);
                    case "--port" -> port = Integer.parseInt(v);
                    default -> fail("unknown option " + a + " (expected --strategy, --pool, --port)");
                }
            } catch (IllegalArgumentException e) {
                fail(a + ": " + e.getMessage());
            }
        }
        if (strategy == null) {
            fail("--strategy is required");
        }
        try (LabServer server = new LabServer(strategy, pool)) {
            int bound = server.start(port);
            System.out.println("LISTENING " + bound);
            System.out.flush();
            InputStream in = System.in;
            while (in.read() >= 0) {
                // anything on stdin is ignored; end of input stops the server
            }
        }
        System.exit(0);
    }

    private static void fail(String message) {
        System.err.println("lab server: " + message);
        System.exit(2);
    }
}
