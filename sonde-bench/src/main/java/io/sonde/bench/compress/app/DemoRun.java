package io.sonde.bench.compress.app;

import io.sonde.api.Monitor;
import io.sonde.api.Sonde;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The demo workload: {@code sonde demo}'s shop ({@code io.sonde.cli.demo.ShopDemo}, looked up by
 * name: the CLI jar is on the child's class path, not on the benchmark's) with the binary file
 * writer and the compression under test, as {@code sonde demo} runs it.
 */
final class DemoRun {
    private DemoRun() {}

    static void run(int orders, int threads, Path out, String compress, Path report) throws Exception {
        List<String> lines = new ArrayList<>();
        Class<?> shopClass = Class.forName("io.sonde.cli.demo.ShopDemo");
        try (Monitor monitor = Sonde.start(Map.of("writer", "file", "file.dir", out.toString(), "compress", compress))) {
            Object shop = shopClass.getConstructor(Monitor.class).newInstance(monitor);
            long t0 = System.nanoTime();
            shopClass.getMethod("run", int.class, int.class).invoke(shop, threads, orders);
            lines.add("workload_wall_ns=" + (System.nanoTime() - t0));
            lines.add("writer_cpu_ns=" + CompressApp.writerCpuNanos());
        }
        Files.write(report, lines, StandardCharsets.UTF_8);
    }
}
