package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sonde.format.Format;
import io.sonde.format.read.FormatException;
import io.sonde.format.read.SondeReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The outside contract of issue 17: {@code SONDE_FRAME_BYTES=16384 sonde demo --out DIR} writes a
 * log of 16 KiB frames; after 64 bytes a third into it are corrupted, {@code sonde analyze DIR
 * --json F} exits non-zero, sets {@code partial}, lists each problem with its {@code offset}, and
 * keeps at least 90 % of the executions (the reader skips the damaged frame and goes on).
 */
class DamagedDemoLogTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void analyzeKeepsNinetyPercentOfTheExecutionsOfADemoLogWith64CorruptBytes() throws Exception {
        Path out = tmp.resolve("demo");
        // the demo in a child JVM: the frame size comes from the environment variable, as users set it
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), "io.sonde.cli.SondeCommand", "demo", "--out", out.toString())
                .redirectErrorStream(true);
        pb.environment().put("SONDE_FRAME_BYTES", "16384");
        Process p = pb.start();
        String demo = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(demo).isZero();

        Path whole = tmp.resolve("whole.json");
        Object[] before = CliRun.run("analyze", out.toString(), "--no-progress", "--json", whole.toString());
        assertThat(before[0]).as((String) before[2]).isEqualTo(0);
        long executions = JSON.readTree(whole.toFile()).get("counters").get("executions").asLong();
        assertThat(executions).isGreaterThan(10_000);

        Path log = largest(out);
        byte[] b = Files.readAllBytes(log);
        assertThat(maxFrameLength(b)).as("frames of at most 16 KiB").isLessThanOrEqualTo(16384).isGreaterThan(8192);
        int at = b.length / 3;
        Random rnd = new Random(17);
        for (int i = 0; i < 64; i++) b[at + i] = (byte) rnd.nextInt(256);
        Files.write(log, b);

        // what a reader that stops at the first bad frame (the reader before issue 17) keeps: the exits before it
        long exitsBeforeDamage = 0;
        try (SondeReader strict = SondeReader.open(out)) {
            while (strict.next()) {
                byte t = strict.type();
                if (t == Format.EXIT || t == Format.EXIT_CPU || t == Format.EXIT_EXCEPTION || t == Format.EXIT_EXCEPTION_CPU) exitsBeforeDamage++;
            }
            throw new AssertionError("the damaged log read without error");
        } catch (FormatException expected) {
            assertThat(expected.offset()).isBetween(at - 16384L, (long) at + 64);
        }
        assertThat(exitsBeforeDamage).as("stopping at the damage keeps about a third").isLessThan(executions / 2);

        Path damaged = tmp.resolve("damaged.json");
        Object[] after = CliRun.run("analyze", out.toString(), "--no-progress", "--json", damaged.toString());
        assertThat(after[0]).as((String) after[2]).isNotEqualTo(0);
        JsonNode root = JSON.readTree(damaged.toFile());
        assertThat(root.get("partial").asBoolean()).isTrue();
        assertThat(root.get("problems")).isNotEmpty();
        for (JsonNode problem : root.get("problems")) {
            assertThat(problem.get("offset").asLong()).as(problem.toString()).isBetween(0L, (long) b.length);
        }
        assertThat(root.get("problems").get(0).get("offset").asLong()).isBetween(at - 16384L, (long) at);
        long kept = root.get("counters").get("executions").asLong();
        double fraction = (double) kept / executions;
        System.out.printf("DamagedDemoLogTest: %d of %d executions kept (%.2f %%; stopping at the damage: %d), %d problems, %d broken traces%n",
                kept, executions, 100 * fraction, exitsBeforeDamage, root.get("problems").size(), root.get("counters").get("brokenTraces").asLong());
        assertThat(fraction).as(kept + " of " + executions + " executions kept").isGreaterThanOrEqualTo(0.90);
    }

    private static Path largest(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> files = s.filter(f -> f.toString().endsWith(".sonde")).toList();
            return files.stream().max(Comparator.comparingLong(f -> f.toFile().length())).orElseThrow();
        }
    }

    private static int maxFrameLength(byte[] b) {
        int max = 0;
        for (int p = 12; p + 8 <= b.length; ) {
            int len = (b[p + 4] & 0xFF) | (b[p + 5] & 0xFF) << 8 | (b[p + 6] & 0xFF) << 16 | (b[p + 7] & 0xFF) << 24;
            max = Math.max(max, len);
            p += len;
        }
        return max;
    }
}
