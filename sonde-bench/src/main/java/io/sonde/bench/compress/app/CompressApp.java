package io.sonde.bench.compress.app;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The program {@code sonde bench compress} runs in a child JVM: {@code demo ORDERS THREADS OUT_DIR
 * COMPRESS REPORT} runs the shop of {@code sonde demo} through the Sonde API ({@link DemoRun}; the
 * CLI jar is on the class path), {@code h2 REPORT ARGS...} runs the H2 workload of {@code sonde
 * bench real} (its {@code RealApp}, under the agent the parent gave this JVM). Either way the
 * {@code key=value} report ends with {@code writer_cpu_ns}: the CPU time of Sonde's writer thread
 * ({@code sonde-writer}) at the end of the workload, read before the monitor closes (the final
 * drain at close is not in it).
 */
public final class CompressApp {
    /** The name of Sonde's writer thread (io.sonde.core.pipeline.WriterLoop). */
    static final String WRITER_THREAD = "sonde-writer";

    private CompressApp() {}

    public static void main(String[] args) throws Exception {
        if (args.length >= 6 && args[0].equals("demo")) {
            DemoRun.run(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Path.of(args[3]), args[4], Path.of(args[5]));
        } else if (args.length >= 2 && args[0].equals("h2")) {
            String[] rest = java.util.Arrays.copyOfRange(args, 2, args.length);
            io.sonde.bench.real.app.RealApp.main(rest);
            appendWriterCpu(Path.of(args[1]));
        } else {
            throw new IllegalArgumentException("usage: CompressApp demo ORDERS THREADS OUT COMPRESS REPORT | h2 REPORT REALAPP-ARGS...");
        }
    }

    /** Appends {@code writer_cpu_ns=N} (-1 when there is no writer thread) to the report. */
    static void appendWriterCpu(Path report) throws Exception {
        Files.write(report, List.of("writer_cpu_ns=" + writerCpuNanos()), StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    static long writerCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(WRITER_THREAD)) {
                return threads.getThreadCpuTime(t.getId());
            }
        }
        return -1;
    }
}
