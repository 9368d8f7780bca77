package io.sonde.bench.real.app;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The process's CPU time by kind of thread, read from Linux's {@code /proc/self/task}: the JIT
 * compilers', the garbage collector's, the VM thread's, each of the Sonde agent's threads, the
 * workload's own ({@code main}) and the rest. The JVM's own threads (compilers, GC) are hidden
 * from {@code ThreadMXBean}; {@code /proc} shows them all, so a slowdown under an agent can be
 * told apart: the workload thread's own code slower, or the other core taken from the JIT and
 * the GC. Resolution: the kernel's clock tick (10 ms per thread). Empty where {@code /proc} is
 * not there.
 */
final class ThreadKindsCpu {
    private static final Path TASKS = Path.of("/proc/self/task");
    /** Nanoseconds per clock tick ({@code getconf CLK_TCK} is 100 on Linux for x86 and arm). */
    private static final long TICK_NANOS = 10_000_000L;

    private ThreadKindsCpu() {}

    /** CPU time (ns) per kind of thread now, of the threads alive now. */
    static Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        if (!Files.isDirectory(TASKS)) return out;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
                } catch (IOException e) {
                    continue; // the thread ended meanwhile
                }
                int open = stat.indexOf('(');
                int close = stat.lastIndexOf(')');
                if (open < 0 || close < open) continue;
                out.merge(kind(stat.substring(open + 1, close)), cpuNanos(stat.substring(close + 2)), Long::sum);
            }
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    /** The kind of a thread by its kernel name (at most 15 characters of the Java name). */
    static String kind(String comm) {
        if (comm.startsWith("C2 Compiler") || comm.startsWith("C1 Compiler")) return "jit";
        if (comm.startsWith("GC Thread") || comm.startsWith("G1 ")) return "gc";
        if (comm.equals("VM Thread")) return "vm";
        if (comm.startsWith("sonde")) return "agent." + comm;
        if (comm.equals("main") || comm.equals("java")) return "main"; // the launcher names the main thread "java"
        return "other";
    }

    /** utime + stime of a stat line's fields after the name (field 3 onwards: utime is the 12th of them). */
    static long cpuNanos(String afterName) {
        String[] f = afterName.trim().split(" ");
        if (f.length < 13) return 0;
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK_NANOS;
    }

    /** {@code end - start} per kind, as report lines {@code PREFIX.KIND_ms=...}. */
    static void report(String prefix, Map<String, Long> start, Map<String, Long> end, List<String> lines) {
        for (Map.Entry<String, Long> e : end.entrySet()) {
            long d = e.getValue() - start.getOrDefault(e.getKey(), 0L);
            lines.add(prefix + "." + e.getKey() + "_ms=" + d / 1_000_000);
        }
    }
}
