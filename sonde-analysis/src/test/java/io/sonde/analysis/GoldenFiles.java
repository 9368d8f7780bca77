package io.sonde.analysis;

import static io.sonde.analysis.Golden.US;

import io.sonde.format.write.LogFileWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.UUID;

/** The golden trace of {@link Golden} written as real log files. */
public final class GoldenFiles {
    public static final UUID AGENT_A = UUID.fromString("0000000a-0000-4000-8000-00000000000a");
    public static final UUID AGENT_B = UUID.fromString("0000000b-0000-4000-8000-00000000000b");
    public static final long WALL = 1_763_800_000_000_000_000L;
    public static final long MONO = 5_000_000_000L;

    private GoldenFiles() {}

    public static LogFileWriter open(Path dir, UUID agent) throws IOException {
        LogFileWriter w = new LogFileWriter(dir, agent, 4242, "host-" + agent.toString().charAt(7), WALL, MONO);
        w.probe(1, "Shop.order", "()V").probe(2, "Shop.price", "()V").probe(3, "Db.query", "()V").thread(Golden.TID, "worker-1");
        w.flushFrame(); // the registry frame comes first, stamped with the anchor time
        return w;
    }

    /** The golden order trace (trace id {@code traceId}) starting at monotonic time {@code base}. */
    public static void orderTrace(LogFileWriter w, long traceId, long base) throws IOException {
        long t = Golden.TID;
        w.traceStart(t, traceId, 0, -1)
                .enterCpu(t, 1, base, 0)
                .enterCpu(t, 2, base + 100 * US, 50 * US)
                .enterCpu(t, 3, base + 150 * US, 80 * US)
                .exitCpu(t, 3, base + 350 * US, 200 * US)
                .exitCpu(t, 2, base + 600 * US, 400 * US)
                .enterCpu(t, 3, base + 700 * US, 450 * US)
                .exitCpu(t, 3, base + 1000 * US, 700 * US)
                .exitCpu(t, 1, base + 1500 * US, 1000 * US);
    }
}
