package io.sonde.bench.real.app;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The program {@code sonde bench real} runs in a child JVM whose class path holds only this
 * package and the workload's library: {@code --workload h2|http|json --ops N --report FILE}. It notes
 * the time of entering {@code main}, prepares the workload (the library's classes load, and are
 * woven, here), runs the bounded workload measuring wall and process CPU time (and when each
 * tenth of its operations began: {@code slice_end_ns.K}, see {@link Slices}), and writes a
 * {@code key=value} report: timings, the workload's result digest and its failures, and every
 * attribute of the Sonde agent's MBean when one is registered (read by name, so nothing of Sonde
 * is on this class path).
 */
public final class RealApp {

    private static final String SONDE_MBEAN = "io.sonde:type=Probes";

    private RealApp() {}

    /** Runs one workload; exit status 0 when the report was written. */
    public static void main(String[] args) throws Exception {
        long mainEntry = epochMicros();
        String workload = null;
        long ops = -1;
        Path report = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--workload" -> workload = args[i + 1];
                case "--ops" -> ops = Long.parseLong(args[i + 1]);
                case "--report" -> report = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (workload == null || ops < 1 || report == null) {
            throw new IllegalArgumentException("usage: RealApp --workload h2|http|json --ops N --report FILE");
        }
        Workload w = switch (workload) {
            case "h2" -> new H2Workload();
            case "http" -> new HttpWorkload();
            case "json" -> new JsonWorkload();
            default -> throw new IllegalArgumentException("unknown workload " + workload);
        };
        List<String> lines = new ArrayList<>();
        lines.add("main_entry_epoch_us=" + mainEntry);
        w.prepare();
        lines.add("ready_epoch_us=" + epochMicros());
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        Map<String, Long> threads0 = ThreadKindsCpu.snapshot();
        AtomicReference<Map<String, Long>> threadsHalf = new AtomicReference<>();
        long t0 = System.nanoTime();
        Slices slices = new Slices(ops, t0, () -> threadsHalf.set(ThreadKindsCpu.snapshot()));
        Workload.Outcome outcome = w.run(ops, slices);
        long t1 = System.nanoTime();
        slices.finished(t1);
        long cpu1 = os.getProcessCpuTime();
        Map<String, Long> threads1 = ThreadKindsCpu.snapshot();
        lines.add("workload_wall_ns=" + (t1 - t0));
        lines.add("workload_cpu_ns=" + (cpu1 - cpu0));
        for (int k = 1; k <= Slices.COUNT; k++) {
            lines.add("slice_end_ns." + k + "=" + slices.end(k));
        }
        lines.add("process_cpu_ns=" + cpu1);
        // CPU time by kind of thread (jit, gc, vm, agent.NAME, main, other), whole workload and last half
        ThreadKindsCpu.report("thread_cpu", threads0, threads1, lines);
        if (threadsHalf.get() != null) ThreadKindsCpu.report("thread_cpu.last_half", threadsHalf.get(), threads1, lines);
        lines.add("digest=" + Long.toHexString(outcome.digest()));
        lines.add("operations=" + outcome.operations());
        lines.add("failures=" + outcome.failures().size());
        for (int i = 0; i < Math.min(5, outcome.failures().size()); i++) {
            lines.add("failure." + i + "=" + outcome.failures().get(i).replace('\n', ' '));
        }
        lines.add("loaded_classes=" + ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount());
        lines.addAll(sondeAttributes());
        w.close();
        Files.write(report, lines, StandardCharsets.UTF_8);
    }

    /** Every readable attribute of the Sonde agent's MBean as {@code mbean.NAME=VALUE}; none without the agent. */
    private static List<String> sondeAttributes() {
        List<String> lines = new ArrayList<>();
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(SONDE_MBEAN);
            if (!server.isRegistered(name)) {
                return lines;
            }
            for (MBeanAttributeInfo a : server.getMBeanInfo(name).getAttributes()) {
                if (!a.isReadable()) {
                    continue;
                }
                Object v = server.getAttribute(name, a.getName());
                String text = v instanceof Object[] array ? String.join(";", toStrings(array)) : String.valueOf(v);
                lines.add("mbean." + a.getName() + "=" + text.replace('\n', ' '));
            }
        } catch (Exception e) {
            lines.add("mbean_error=" + e);
        }
        return lines;
    }

    private static List<String> toStrings(Object[] array) {
        List<String> list = new ArrayList<>();
        for (Object o : array) {
            list.add(String.valueOf(o));
        }
        return list;
    }

    private static long epochMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
