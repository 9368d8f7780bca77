package io.sonde.cli;

import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.TextReport;
import io.sonde.analysis.input.LogSource;
import io.sonde.analysis.tree.TreePrinter;
import io.sonde.api.Counters;
import io.sonde.api.Monitor;
import io.sonde.api.Sonde;
import io.sonde.cli.demo.ShopDemo;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sonde demo}: the main job on embedded defaults. Runs the bundled multi-threaded sample
 * program ({@link ShopDemo}) instrumented through the Sonde API with the binary file writer, then
 * reads the log back and prints what was recorded: pipeline counters, call trees, statistics.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a multi-threaded sample program instrumented through the Sonde API, writes a binary log and summarises it."})
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "sonde-out/demo",
            description = "folder for the binary log (emptied first; default ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "4", description = "worker threads (default ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--orders", paramLabel = "N", defaultValue = "4000", description = "orders to process (default ${DEFAULT-VALUE})")
    int orders;

    @Option(names = "--cpu-time", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "record per-execution thread CPU time (default on; --no-cpu-time for wall time only)")
    boolean cpuTime;

    @Option(names = "--collector", paramLabel = "HOST:PORT",
            description = "send the records to a collector (sonde collector) instead of a file; its archive holds them")
    String collector;

    @Option(names = "--token-file", paramLabel = "F", description = "with --collector: file holding the collector's token (chmod 600)")
    Path tokenFile;

    @Override
    public Integer call() throws Exception {
        if (threads < 1 || threads > 256) throw new UsageError("--threads must be between 1 and 256, got " + threads);
        if (orders < 1) throw new UsageError("--orders must be positive, got " + orders);
        if (collector != null || tokenFile != null) return toCollector(System.out);
        PrintStream o = System.out;
        prepare(out);
        o.printf(Locale.ROOT, "Sonde demo: %d orders on %d worker threads, binary log in %s%n%n", orders, threads, out);

        long start = System.nanoTime();
        Counters counters;
        ShopDemo shop;
        try (Monitor monitor = Sonde.start(Map.of("writer", "file", "file.dir", out.toString(),
                "cpu.time", cpuTime ? "on" : "off"))) {
            shop = new ShopDemo(monitor);
            shop.run(threads, orders);
            monitor.close(); // drains every ring and writes the trailer before we read the counters
            counters = monitor.counters();
        } catch (IllegalStateException e) {
            throw new UserError(e.getMessage());
        }
        double seconds = (System.nanoTime() - start) / 1e9;

        o.printf(Locale.ROOT, "ran in %.2f s: %d orders completed, %d declined (recorded as exceptions)%n",
                seconds, shop.completed(), shop.declined());
        o.printf(Locale.ROOT, "records produced %d, written %d, dropped %d; log: %d file(s), %s%n%n",
                counters.produced(), counters.written(), counters.dropped(), files(out).size(), bytes(out));

        AnalysisOptions options = new AnalysisOptions();
        options.keepTrees = 2;
        AnalysisResult r = Analyzer.run(new LogSource(List.of(out)), options);
        TextReport.summary(r, o);
        o.println();
        new TreePrinter(o).print(r.joinedTrees());
        TextReport.statistics(r, o, 10);
        o.println();
        o.println("Next: ./sonde analyze " + out + " --help   (exports, plots, service demands)");
        o.println("      ./sonde dump " + out + " --limit 20   (the records as text)");
        return r.partial() ? 1 : 0;
    }

    private static void prepare(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            for (Path f : files(dir)) Files.delete(f);
        }
        Files.createDirectories(dir);
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".sonde")).sorted(Comparator.naturalOrder()).toList();
        }
    }

    private static String bytes(Path dir) throws IOException {
        long total = 0;
        for (Path f : files(dir)) total += Files.size(f);
        return total >= 1 << 20 ? String.format(Locale.ROOT, "%.1f MiB", total / 1048576.0)
                : String.format(Locale.ROOT, "%.1f KiB", total / 1024.0);
    }

    /** {@code --collector}: the same program, its records sent with acknowledged delivery to a collector. */
    private int toCollector(PrintStream o) throws InterruptedException {
        if (collector == null) throw new UsageError("--token-file needs --collector");
        int colon = collector.lastIndexOf(':');
        int port;
        try {
            port = Integer.parseInt(collector.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (colon <= 0 || port < 1 || port > 65535) throw new UsageError("--collector must be HOST:PORT, got '" + collector + "'");
        Map<String, String> settings = new java.util.HashMap<>(Map.of("writer", "tcp", "tcp.host", collector.substring(0, colon),
                "tcp.port", String.valueOf(port), "cpu.time", cpuTime ? "on" : "off"));
        if (tokenFile != null) settings.put("tcp.token.file", tokenFile.toString());
        o.printf(Locale.ROOT, "Sonde demo: %d orders on %d worker threads, records sent to the collector at %s%n", orders, threads, collector);
        Counters counters;
        ShopDemo shop;
        try (Monitor monitor = Sonde.start(settings)) {
            shop = new ShopDemo(monitor);
            shop.run(threads, orders);
            monitor.close(); // waits (bounded) until the collector acknowledged the trailer
            counters = monitor.counters();
        } catch (IllegalStateException | IllegalArgumentException | java.io.UncheckedIOException e) {
            throw new UserError(e.getMessage());
        }
        o.printf(Locale.ROOT, "%d orders completed, %d declined; records produced %d, written %d, dropped %d%n", shop.completed(),
                shop.declined(), counters.produced(), counters.written(), counters.dropped());
        o.println("Next: ./sonde analyze DIR   (DIR: the collector's --out)");
        return counters.written() == counters.produced() ? 0 : 1;
    }
}
