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
import io.sonde.api.live.ObserveService;
import io.sonde.cli.demo.ShopDemo;
import io.sonde.cli.demo.ShopLive;
import io.sonde.core.live.ObserveStartup;
import io.sonde.format.observe.ObserveProtocol;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sonde demo}: the main job on embedded defaults. Runs the bundled multi-threaded sample
 * program ({@link ShopDemo}) instrumented through the Sonde API with the binary file writer, then
 * reads the log back and prints what was recorded: pipeline counters, call trees, statistics.
 * With {@code --live} the shop also keeps its orders, stock and workers as monitored objects
 * ({@link ShopLive}) on an observe endpoint, for {@code sonde watch}, and runs until stopped.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a multi-threaded sample program instrumented through the Sonde API, writes a binary log and summarises it."})
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "sonde-out/demo",
            description = "folder for the binary log (emptied first; default ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "4", description = "worker threads (default ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--orders", paramLabel = "N", description = "orders to process (default 4000; not with --live)")
    Integer orders;

    @Option(names = "--cpu-time", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "record per-execution thread CPU time (default on; --no-cpu-time for wall time only)")
    boolean cpuTime;

    @Option(names = "--live",
            description = "also expose the shop's orders, stock and workers as monitored objects on an observe endpoint"
                    + " (127.0.0.1), token in DIR/observe.token, and run until --seconds passed or Ctrl-C")
    boolean live;

    @Option(names = "--seconds", paramLabel = "N", description = "with --live: stop after N seconds (default: run until Ctrl-C)")
    Integer seconds;

    @Option(names = "--observe-port", paramLabel = "P",
            description = "with --live: the observe endpoint's port (default 7712; 0 = any free port)")
    Integer observePort;

    /** Set by Ctrl-C (the shutdown hook) during a live run. */
    private final AtomicBoolean stop = new AtomicBoolean();
    /** Released when the run has finished the recording and printed its summary. */
    private final CountDownLatch summarised = new CountDownLatch(1);

    @Option(names = "--collector", paramLabel = "HOST:PORT",
            description = "send the records to a collector (sonde collector) instead of a file; its archive holds them")
    String collector;

    @Option(names = "--token-file", paramLabel = "F", description = "with --collector: file holding the collector's token (chmod 600)")
    Path tokenFile;

    @Override
    public Integer call() throws Exception {
        if (threads < 1 || threads > 256) throw new UsageError("--threads must be between 1 and 256, got " + threads);
        if (orders != null && orders < 1) throw new UsageError("--orders must be positive, got " + orders);
        if (!live && (seconds != null || observePort != null)) {
            throw new UsageError((seconds != null ? "--seconds" : "--observe-port") + " needs --live");
        }
        if (live && orders != null) throw new UsageError("--orders does not go with --live (it runs until --seconds or Ctrl-C)");
        if (live && (collector != null || tokenFile != null)) throw new UsageError("--collector does not go with --live");
        if (seconds != null && seconds < 1) throw new UsageError("--seconds must be positive, got " + seconds);
        int port = observePort == null ? ObserveProtocol.DEFAULT_PORT : observePort;
        if (port < 0 || port > 65535) throw new UsageError("--observe-port must be between 0 and 65535, got " + port);
        int orderCount = orders == null ? 4000 : orders;
        if (collector != null || tokenFile != null) return toCollector(System.out, orderCount);
        if (!live) return runAndSummarise(port, orderCount);
        // Ctrl-C: a shutdown hook stops the shop and waits until the recording is finished and summarised
        Thread ctrlC = new Thread(() -> {
            stop.set(true);
            try {
                summarised.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "sonde-demo-ctrl-c");
        Runtime.getRuntime().addShutdownHook(ctrlC);
        try {
            return runAndSummarise(port, orderCount);
        } finally {
            summarised.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(ctrlC);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and has just been released
            }
        }
    }

    private int runAndSummarise(int port, int orderCount) throws IOException, InterruptedException {
        PrintStream o = System.out;
        prepare(out);
        if (live) {
            o.printf(Locale.ROOT, "Sonde demo, live: orders on %d worker threads until %s, binary log in %s%n", threads,
                    seconds == null ? "Ctrl-C" : seconds + " s passed (or Ctrl-C)", out);
        } else {
            o.printf(Locale.ROOT, "Sonde demo: %d orders on %d worker threads, binary log in %s%n%n", orderCount, threads, out);
        }

        long start = System.nanoTime();
        Counters counters;
        ShopDemo shop;
        try (Monitor monitor = Sonde.start(Map.of("writer", "file", "file.dir", out.toString(),
                "cpu.time", cpuTime ? "on" : "off"))) {
            if (live) {
                shop = runLive(monitor, port, o);
            } else {
                shop = new ShopDemo(monitor);
                shop.run(threads, orderCount);
            }
            monitor.close(); // drains every ring and writes the trailer before we read the counters
            counters = monitor.counters();
        } catch (IllegalStateException e) {
            throw new UserError(e.getMessage());
        }
        double elapsed = (System.nanoTime() - start) / 1e9;

        o.printf(Locale.ROOT, "ran in %.2f s: %d orders completed, %d declined (recorded as exceptions)%n",
                elapsed, shop.completed(), shop.declined());
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

    /**
     * The live run: starts the observe endpoint with a new token in {@code out/observe.token}, runs the
     * shop with its monitored objects until the time is up or Ctrl-C ({@link #stop}), then stops the
     * endpoint.
     */
    private ShopDemo runLive(Monitor monitor, int port, PrintStream o) throws IOException, InterruptedException {
        Path tokenFile = out.resolve("observe.token");
        String token = ObserveStartup.newToken();
        ObserveStartup.writeTokenFile(tokenFile, token);
        ObserveService endpoint;
        try {
            endpoint = Sonde.live().observe(port, token);
        } catch (java.io.UncheckedIOException e) {
            throw new UserError(e.getMessage() + (port == ObserveProtocol.DEFAULT_PORT
                    ? " (another demo or agent with observe=on? choose one with --observe-port)" : ""));
        }
        long deadline = seconds == null ? Long.MAX_VALUE : System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String address = "127.0.0.1:" + endpoint.port();
        String tokenArg = " --token-file " + tokenFile;
        try (ShopLive shopLive = new ShopLive(Sonde.live(), threads)) {
            o.println("observe endpoint on " + address + ", token in " + tokenFile + " (readable only by you)");
            o.println("  follow the shop:  ./sonde watch " + address + " 'shop/**'" + tokenArg);
            o.println("  only the stock:   ./sonde watch " + address + " 'shop/stock/**'" + tokenArg);
            o.println("  list its objects: ./sonde ls " + address + "/shop" + tokenArg);
            o.println("  stock levels now: ./sonde get " + address + "/shop/stock/*/level" + tokenArg);
            o.println();
            o.flush();
            ShopDemo shop = new ShopDemo(monitor, shopLive);
            shop.runUntil(threads, () -> stop.get() || System.nanoTime() - deadline >= 0);
            o.println(stop.get() ? "stopped (Ctrl-C)" : "time is up");
            return shop;
        } finally {
            endpoint.close();
        }
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
    private int toCollector(PrintStream o, int orders) throws InterruptedException {
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
