package io.sonde.bench.ingest;

import io.sonde.collector.Collector;
import io.sonde.collector.archive.ArchiveHandler;
import io.sonde.collector.database.DatabaseHandler;
import io.sonde.collector.handler.DataHandler;
import io.sonde.collector.handler.DecodingCounter;
import io.sonde.collector.handler.HandlerStatus;
import io.sonde.collector.receive.ReceiverListener;
import io.sonde.collector.receive.ReceiverStatus;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Collector ingest benchmark ({@code ./sonde bench ingest [--quick] [--json F] [--senders N]
 * [--seconds S] [--dir D]}): agents replay pre-encoded 256 KiB frames of ENTER/EXIT records as
 * fast as the loopback socket takes them into an in-process collector, for each handler set —
 * none, archive, archive + database, decode-count — and the disk's sequential write speed is
 * measured beside it. Reports records/s and frames/s through the receiver (ingest: envelope checks
 * and the lossless archive on the connection threads) and, for queued handlers, how many frames
 * they handled and dropped and how long they took to drain their queue after the senders stopped.
 */
public final class IngestBenchmark {
    private IngestBenchmark() {}

    record Config(String name, Supplier<List<DataHandler>> handlers) {}

    record Result(String config, int senders, double seconds, long frames, long records, long bytes, double recordsPerSecond,
            double framesPerSecond, double mibPerSecond, double drainSeconds, List<HandlerStatus> handlers) {}

    public static void main(String[] args) throws Exception {
        boolean quick = false;
        Path json = null;
        Path dir = null;
        int senders = 2;
        double seconds = -1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--json" -> json = Path.of(value(args, ++i, "--json"));
                case "--dir" -> dir = Path.of(value(args, ++i, "--dir"));
                case "--senders" -> senders = positive(value(args, ++i, "--senders"), "--senders");
                case "--seconds" -> seconds = positive(value(args, ++i, "--seconds"), "--seconds");
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'; options: --quick --json F --dir D --senders N --seconds S");
            }
        }
        double runSeconds = seconds > 0 ? seconds : quick ? 2 : 10;
        long diskBytes = quick ? 64L << 20 : 512L << 20;
        Path base = dir != null ? dir : Path.of(System.getProperty("java.io.tmpdir"));
        Files.createDirectories(base);
        Path work = Files.createTempDirectory(base, "sonde-ingest-");
        try {
            FrameTemplate template = FrameTemplate.build(work.resolve("template"));
            System.out.printf(Locale.ROOT, "ingest benchmark: %d senders, %.0f s per configuration, frames of %d bytes with %d records, folder %s%n",
                    senders, runSeconds, template.frameBytes(), template.recordsPerFrame(), work);
            List<Config> configs = List.of(
                    new Config("no handler", List::of),
                    new Config("archive", () -> List.of(new ArchiveHandler())),
                    new Config("archive + database", () -> List.of(new ArchiveHandler(), new DatabaseHandler())),
                    new Config("decode-count", () -> List.of(new DecodingCounter())));
            // warm-up: one short run of the richest configuration (JIT), not reported
            run(new Config("warm-up", configs.get(2).handlers()), template, senders, Math.min(2, runSeconds), work.resolve("warm-up"));
            List<Result> results = new ArrayList<>();
            for (Config c : configs) {
                Result r = run(c, template, senders, runSeconds, work.resolve(c.name().replaceAll("[^a-z]+", "-")));
                results.add(r);
                System.out.println(describe(r));
            }
            double diskMiBs = diskWriteMiBPerSecond(work.resolve("disk-test"), diskBytes);
            System.out.printf(Locale.ROOT, "disk sequential write (%d MiB, 1 MiB writes, then fdatasync): %.0f MiB/s%n", diskBytes >> 20, diskMiBs);
            if (json != null) {
                Files.writeString(json, JsonOut.write(results, diskMiBs, senders, runSeconds, template));
                System.out.println("wrote " + json);
            }
        } finally {
            deleteTree(work);
        }
    }

    static Result run(Config c, FrameTemplate template, int senders, double seconds, Path out) throws Exception {
        Collector collector = Collector.start(new Collector.Settings(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), out,
                c.handlers().get(), Map.of()), ReceiverListener.none(), line -> System.out.println("  " + line));
        List<Sender> running = new ArrayList<>();
        long t0 = System.nanoTime();
        long deadline = t0 + (long) (seconds * 1e9);
        for (int i = 0; i < senders; i++) {
            Sender s = new Sender(template, collector.port(), i, deadline);
            running.add(s);
            s.start();
        }
        for (Sender s : running) {
            s.join();
            if (s.failure != null) {
                collector.abort();
                throw new IOException("sender failed: " + s.failure, s.failure);
            }
        }
        // ingest ends when the receiver has taken every frame (connections closed)
        while (collector.receiverStatus().openConnections() > 0) {
            Thread.sleep(1);
        }
        long ingested = System.nanoTime();
        collector.stop();
        long drained = System.nanoTime();
        ReceiverStatus st = collector.receiverStatus();
        long frames = st.agents().values().stream().mapToLong(ReceiverStatus.AgentStatus::frames).sum();
        long bytes = st.agents().values().stream().mapToLong(ReceiverStatus.AgentStatus::bytes).sum();
        long dataFrames = frames - senders; // each sender's first frame holds only the definitions
        long records = dataFrames * template.recordsPerFrame();
        double s = (ingested - t0) / 1e9;
        return new Result(c.name(), senders, s, frames, records, bytes, records / s, frames / s, bytes / s / (1 << 20), (drained - ingested) / 1e9,
                collector.handlerStatus());
    }

    static String describe(Result r) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-20s %,14.0f records/s %,9.0f frames/s %,7.0f MiB/s  (%,d records in %.2f s)",
                r.config(), r.recordsPerSecond(), r.framesPerSecond(), r.mibPerSecond(), r.records(), r.seconds()));
        for (HandlerStatus h : r.handlers()) {
            b.append(String.format(Locale.ROOT, "%n  %s; drained %.2f s after ingest", h.describe(), r.drainSeconds()));
        }
        return b.toString();
    }

    /** Writes {@code bytes} in 1 MiB writes and forces them to the device; MiB/s over the whole. */
    static double diskWriteMiBPerSecond(Path file, long bytes) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        new java.util.Random(1).ints(chunk.capacity() / 4).forEach(chunk::putInt);
        long t0 = System.nanoTime();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long written = 0; written < bytes; written += chunk.capacity()) {
                chunk.clear();
                while (chunk.hasRemaining()) {
                    ch.write(chunk);
                }
            }
            ch.force(false);
        } finally {
            Files.deleteIfExists(file);
        }
        return bytes / ((System.nanoTime() - t0) / 1e9) / (1 << 20);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int positive(String v, String option) {
        try {
            int n = Integer.parseInt(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(option + " must be a positive integer, got '" + v + "'");
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> all = Files.walk(p)) {
            for (Path f : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(f);
            }
        }
    }
}
