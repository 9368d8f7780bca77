package io.sonde.core.live.probe;

import io.sonde.core.live.mib.DoubleSensorNode;
import io.sonde.core.live.mib.GatedSampler;
import io.sonde.core.live.mib.LongSensorNode;
import io.sonde.core.live.mib.MibTree;
import io.sonde.core.live.mib.ObjectNode;
import io.sonde.core.live.mib.Source;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * The JVM and system metrics as sampled sensors:
 *
 * <pre>
 * jvm/memory   heapUsed, heapCommitted, nonHeapUsed (bytes)
 * jvm/gc       count, time (ms; summed over all collectors)
 * jvm/threads  count, daemon
 * jvm/process  cpuLoad (0..1), cpuTime (ns)          where the platform MXBean gives them
 * system/cpu   load (0..1)                            where the platform MXBean gives it
 * system/load  average (1 minute; -1 where unavailable)
 * system/fd    open, max                              on Unix
 * </pre>
 *
 * A pull reads the MXBean directly. Value-change events come from one sampler thread
 * ("sonde-live-probes", daemon, started at the first subscription) that samples, every period,
 * only the probes whose gate is open, and waits without a timeout while none is open.
 */
public final class JvmProbes implements AutoCloseable {
    private final MibTree tree;
    private final GatedSampler sampler;

    private JvmProbes(MibTree tree, long periodMillis) {
        if (periodMillis < 1) throw new IllegalArgumentException("probe period: " + periodMillis + " ms is below 1 ms");
        this.tree = tree;
        this.sampler = new GatedSampler(tree, periodMillis, "sonde-live-probes");
    }

    /** Registers the probes in {@code tree}, sampled every {@code periodMillis} while subscribed. */
    public static JvmProbes register(MibTree tree, long periodMillis) {
        JvmProbes p = new JvmProbes(tree, periodMillis);
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        ObjectNode memory = tree.object("jvm/memory", "JvmMemory");
        p.addLong(memory, "heapUsed", "bytes", "heap in use", () -> mem.getHeapMemoryUsage().getUsed());
        p.addLong(memory, "heapCommitted", "bytes", "heap committed", () -> mem.getHeapMemoryUsage().getCommitted());
        p.addLong(memory, "nonHeapUsed", "bytes", "non-heap memory in use", () -> mem.getNonHeapMemoryUsage().getUsed());

        List<GarbageCollectorMXBean> gcs = ManagementFactory.getGarbageCollectorMXBeans();
        ObjectNode gc = tree.object("jvm/gc", "JvmGc");
        p.addLong(gc, "count", "", "collections, all collectors", () -> sum(gcs, true));
        p.addLong(gc, "time", "ms", "time collecting, all collectors", () -> sum(gcs, false));

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        ObjectNode th = tree.object("jvm/threads", "JvmThreads");
        p.addLong(th, "count", "", "live threads", threads::getThreadCount);
        p.addLong(th, "daemon", "", "live daemon threads", threads::getDaemonThreadCount);

        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            com.sun.management.OperatingSystemMXBean sun = (com.sun.management.OperatingSystemMXBean) os;
            ObjectNode process = tree.object("jvm/process", "JvmProcess");
            p.addDouble(process, "cpuLoad", "ratio", "recent CPU use of this process (0..1)", sun::getProcessCpuLoad);
            p.addLong(process, "cpuTime", "ns", "CPU time of this process", sun::getProcessCpuTime);
            p.addDouble(tree.object("system/cpu", "SystemCpu"), "load", "ratio", "recent CPU use of the system (0..1)",
                    sun::getCpuLoad);
        }
        p.addDouble(tree.object("system/load", "SystemLoad"), "average", "", "system load average, 1 minute",
                os::getSystemLoadAverage);
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean) {
            com.sun.management.UnixOperatingSystemMXBean unix = (com.sun.management.UnixOperatingSystemMXBean) os;
            ObjectNode fd = tree.object("system/fd", "FileDescriptors");
            p.addLong(fd, "open", "", "open file descriptors of this process", unix::getOpenFileDescriptorCount);
            p.addLong(fd, "max", "", "file descriptor limit of this process", unix::getMaxFileDescriptorCount);
        }
        return p;
    }

    private static long sum(List<GarbageCollectorMXBean> gcs, boolean count) {
        long s = 0;
        for (GarbageCollectorMXBean g : gcs) {
            long v = count ? g.getCollectionCount() : g.getCollectionTime();
            if (v > 0) s += v; // -1: not available for this collector
        }
        return s;
    }

    private void addLong(ObjectNode o, String name, String unit, String description, LongSupplier s) {
        LongSensorNode n = tree.sampledLong(o, name, unit, description, s);
        add(n, n::sample);
    }

    private void addDouble(ObjectNode o, String name, String unit, String description, DoubleSupplier s) {
        DoubleSensorNode n = tree.sampledDouble(o, name, unit, description, s);
        add(n, n::sample);
    }

    private void add(Source s, Runnable sample) {
        sampler.add(s, sample);
    }

    /** Samples every probe whose gate is open now; returns how many it sampled. */
    public int sampleOnce() {
        return sampler.sampleOnce();
    }

    /** Probes with an open gate. */
    public int openGates() {
        return sampler.openGates();
    }

    /** Whether the sampler thread was ever started. */
    public boolean samplerStarted() {
        return sampler.started();
    }

    @Override
    public void close() {
        sampler.close();
    }
}
