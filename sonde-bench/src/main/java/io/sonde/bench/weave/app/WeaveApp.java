package io.sonde.bench.weave.app;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The program {@code sonde bench weave} runs in a child JVM: loads (without initialising) every
 * class of a library jar under a package prefix, so that an agent weaves each of them once, and
 * writes a {@code key=value} report: when {@code main} was entered, how long loading took, how
 * many classes loaded and failed to load, and the agent's own weaving counters read from its MBean.
 * ({@code --initialize true}: loaded and initialised, so linked). With {@code --attach} it then announces that it is ready (a file) and waits for an attached
 * agent to finish weaving (the agent's {@code io.sonde.agent.weaving} property saying {@code done}).
 * Prints nothing itself; packed into a jar of its own so that the agent sees only this and the library.
 */
public final class WeaveApp {

    private static final String WEAVING_PROPERTY = "io.sonde.agent.weaving";
    private static final String MBEAN_PENDING_PROPERTY = "io.sonde.agent.mbean.pending";

    private WeaveApp() {}

    public static void main(String[] args) throws Exception {
        long mainMicros = epochMicros();
        Map<String, String> a = arguments(args);
        Path jar = Path.of(required(a, "--jar"));
        String prefix = required(a, "--prefix").replace('.', '/');
        Path report = Path.of(required(a, "--report"));
        Map<String, String> out = new LinkedHashMap<>();
        out.put("main_us", Long.toString(mainMicros));

        List<String> names = classNames(jar, prefix);
        ClassLoader loader = WeaveApp.class.getClassLoader();
        boolean initialize = Boolean.parseBoolean(a.getOrDefault("--initialize", "false"));
        int failed = 0;
        long t0 = System.nanoTime();
        for (String name : names) {
            try {
                Class.forName(name, initialize, loader);
            } catch (LinkageError | ClassNotFoundException | RuntimeException e) {
                failed++; // e.g. a class whose super type is an optional dependency that is absent
            }
        }
        out.put("load_ns", Long.toString(System.nanoTime() - t0));
        out.put("classes", Integer.toString(names.size()));
        out.put("load_failed", Integer.toString(failed));

        if (a.containsKey("--attach")) {
            Path ready = Path.of(a.get("--attach"));
            long cpuAtReady = processCpuNanos();
            Files.writeString(ready, "loaded\n");
            long deadline = System.nanoTime() + Long.parseLong(a.getOrDefault("--attach-timeout-s", "300")) * 1_000_000_000L;
            String weaving;
            while ((weaving = System.getProperty(WEAVING_PROPERTY)) == null || !weaving.startsWith("done")) {
                if (System.nanoTime() > deadline) {
                    out.put("attach_error", "no attached agent finished weaving in time (" + WEAVING_PROPERTY + "=" + weaving + ")");
                    break;
                }
                Thread.sleep(2);
            }
            out.put("attach_done_us", Long.toString(epochMicros()));
            // the agent registers its MBean (read below) right after "done"
            while (System.getProperty(MBEAN_PENDING_PROPERTY) != null && System.nanoTime() < deadline) {
                Thread.sleep(2);
            }
            // CPU of the whole process while the agent attached and wove (this loop's polling is
            // next to nothing): on a loaded machine a steadier figure than the wall time
            out.put("attach_cpu_ns", Long.toString(processCpuNanos() - cpuAtReady));
            out.put("attach_weaving", String.valueOf(weaving));
        }
        agentCounters(out);
        List<String> lines = new ArrayList<>();
        out.forEach((k, v) -> lines.add(k + "=" + v));
        Files.write(report, lines, StandardCharsets.UTF_8);
    }

    /** Every {@code key=value} counter of the agent's MBean, prefixed {@code agent.}; nothing without an agent. */
    private static void agentCounters(Map<String, String> out) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName("io.sonde:type=Probes");
            if (!server.isRegistered(name)) {
                return;
            }
            for (String c : (String[]) server.getAttribute(name, "Counters")) {
                int eq = c.indexOf('=');
                if (eq > 0) {
                    out.put("agent." + c.substring(0, eq), c.substring(eq + 1));
                }
            }
            out.put("agent.instrumented_classes", String.valueOf(server.getAttribute(name, "InstrumentedClassCount")));
        } catch (Exception e) {
            out.put("agent_error", e.toString());
        }
    }

    private static List<String> classNames(Path jar, String prefix) throws IOException {
        List<String> names = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            Enumeration<JarEntry> entries = file.entries();
            while (entries.hasMoreElements()) {
                String n = entries.nextElement().getName();
                if (n.startsWith(prefix) && n.endsWith(".class") && !n.endsWith("module-info.class")) {
                    names.add(n.substring(0, n.length() - ".class".length()).replace('/', '.'));
                }
            }
        }
        names.sort(null);
        return names;
    }

    private static Map<String, String> arguments(String[] args) {
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i], args[i + 1]);
        }
        return a;
    }

    private static String required(Map<String, String> a, String key) {
        String v = a.get(key);
        if (v == null) {
            throw new IllegalArgumentException("missing " + key);
        }
        return v;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static long epochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
