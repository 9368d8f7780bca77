package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.testing.GoldenFiles;
import io.sonde.format.testing.GoldenScenarios;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sonde dump} on the golden files, on a folder of several agents, and on broken input. */
class DumpCommandTest {
    @TempDir
    Path tmp;

    static Object[] run(String... args) {
        return CliRun.run(args);
    }

    static List<String> lines(Object s) {
        return Arrays.asList(((String) s).split("\\R"));
    }

    @Test
    void minimalGoldenFileWithDefinitions() throws Exception {
        Path f = GoldenFiles.copyTo("minimal.sonde", tmp);
        Object[] r = run("dump", f.toString(), "--definitions");
        assertThat(r[0]).isEqualTo(0);
        assertThat(lines(r[1])).containsExactly(
                "registry PROBE_DEF 1 com.example.Shop.checkout(I)V",
                "registry THREAD_DEF 1 \"main\"",
                "thread 1 \"main\" TRACE_START trace=0x100000001",
                "thread 1 \"main\" ENTER com.example.Shop.checkout(I)V time=5000100000",
                "thread 1 \"main\" EXIT com.example.Shop.checkout(I)V time=5000350000",
                "trailer: produced 2, written 2",
                "end: complete, 5 records");
        assertThat(r[2]).isEqualTo("");
    }

    @Test
    void fullGoldenFileShowsEveryRecordKindAndTheDrops() throws Exception {
        Path f = GoldenFiles.copyTo("full.sonde", tmp);
        Object[] r = run("dump", f.toString(), "--frames");
        assertThat(r[0]).isEqualTo(0);
        List<String> out = lines(r[1]);
        assertThat(out).contains(
                "thread 17 \"worker-\u00fc\" TRACE_START trace=0x200000001 parent=0x100000001 parent-order=1",
                "thread 17 \"worker-\u00fc\" EXIT_EXCEPTION_CPU com.example.Db.query()Ljava/util/List; time=9000070000 cpu=2004000"
                        + " exception=java.lang.IllegalStateException",
                "thread 17 \"worker-\u00fc\" GAP dropped=4",
                "thread 1 \"main\" EVENT order time=9000055000 paid=true items=3 cents=1999 weight=2.5 region=eu-west",
                "trailer: produced 17, written 13, dropped buffer-full 4",
                "end: complete, 17 records");
        assertThat(out.get(0)).startsWith("frame seq 1 agent 5f0e2c1a-7b3d-4e9f-8a6c-0123456789ab host host-b.example pid 31337 wall 2025-11-22T08:28:20.001Z");
    }

    @Test
    void folderOfSeveralAgentsAndLimit() throws Exception {
        GoldenFiles.copyTo("minimal.sonde", tmp);
        Path agent = Files.createDirectories(tmp.resolve(GoldenScenarios.ROLLED_AGENT.toString()));
        for (String name : GoldenScenarios.rolled().keySet()) {
            GoldenFiles.copyTo("rolled/" + name, agent);
        }
        Object[] r = run("dump", tmp.toString(), "--limit", "2");
        assertThat(r[0]).isEqualTo(0);
        assertThat(lines(r[1])).containsExactly(
                "== " + tmp.resolve("minimal.sonde") + " (1 segment) ==",
                "thread 1 \"main\" TRACE_START trace=0x100000001",
                "thread 1 \"main\" ENTER com.example.Shop.checkout(I)V time=5000100000",
                "(stopped after 2 records: --limit)",
                "== agent c0ffee00-0000-4000-8000-00000000beef (2 segments) ==",
                "thread 5 \"pool-1-thread-1\" TRACE_START trace=0x500000001",
                "thread 5 \"pool-1-thread-1\" ENTER com.example.Job.run()V time=20000100000",
                "(stopped after 2 records: --limit)");
    }

    @Test
    void corruptFilePrintsEveryRecordAroundTheDamageAndEveryProblemWithExitCode1() throws Exception {
        byte[] b = GoldenFiles.bytes("full.sonde");
        b[757 + 100] ^= 0x10; // inside the third frame (seq 2): CRC mismatch there
        Path f = tmp.resolve("broken.sonde");
        Files.write(f, b);
        Object[] r = run("dump", f.toString());
        assertThat(r[0]).isEqualTo(1);
        List<String> out = lines(r[1]);
        assertThat(out.subList(0, 12)).doesNotHaveDuplicates(); // the records of frames seq 0 and 1
        assertThat(out.get(11)).isEqualTo("thread 17 \"worker-\u00fc\" EVENT tick time=9000080000");
        assertThat(out.subList(12, out.size())).containsExactly(
                "problem: " + f + ": offset 757: CRC mismatch in frame of 198 bytes (stored 0x8b071c98, computed 0xe19d0976); "
                        + "skipped bytes 757..955 (198 bytes) to the next valid frame",
                "problem: " + f + ": offset 987: 1 frame missing (sequence jumps from 1 to 3; possibly a frame re-sent under a new number)",
                "problem: " + f + ": offset 955: trailer says 13 records written, 9 read: 4 missing or unreadable",
                "trailer: produced 17, written 13, dropped buffer-full 4",
                "end: complete, 12 records, 3 problem(s)");
        List<String> err = lines(r[2]);
        assertThat(err).hasSize(3);
        assertThat(err.get(0)).startsWith("sonde dump: " + f + ": offset 757: CRC mismatch in frame of 198 bytes");
        assertThat((String) r[2]).doesNotContain("\tat ");
    }

    /** A frame re-sent under a new number leaves a sequence gap without losing records: reported, exit code 0. */
    @Test
    void aSequenceGapWithAMatchingTrailerCountIsShownButNotAFailure() throws Exception {
        io.sonde.format.testing.StreamBytes s = new io.sonde.format.testing.StreamBytes(new java.util.UUID(1, 2), "h", 1);
        s.data(0, 0, 0, 0L, new io.sonde.format.testing.RecordBytes().probeDef(1, "p", "()V"));
        s.data(2, 0, 0, 1L, new io.sonde.format.testing.RecordBytes().enter(1, 5).exit(1, 6));
        Path f = tmp.resolve("resent.sonde");
        Files.write(f, s.trailer(3, 0, 0, 2, 2).toBytes());
        Object[] r = run("dump", f.toString());
        assertThat(r[0]).as((String) r[1]).isEqualTo(0);
        assertThat((String) r[1]).contains("problem: " + f + ": offset 132: 1 frame missing (sequence jumps from 0 to 2");
        assertThat((String) r[2]).isEmpty();
    }

    /** Issue 17: dump goes on after a damaged frame, so a second damaged frame of the same stream is reported too. */
    @Test
    void everyDamagedFrameOfOneStreamIsReported() throws Exception {
        byte[] b = GoldenFiles.bytes("full.sonde");
        List<Integer> frames = io.sonde.format.testing.Frames.offsets(b);
        int second = frames.get(1);
        int trailer = frames.get(3);
        b[second + 70] ^= 0x10; // frame seq 1
        b[trailer + 70] ^= 0x10; // the trailer frame (seq 3), after the intact frame seq 2
        Path f = tmp.resolve("twice.sonde");
        Files.write(f, b);
        Object[] r = run("dump", f.toString());
        assertThat(r[0]).isEqualTo(1);
        List<String> err = lines(r[2]);
        assertThat(err).hasSize(3);
        assertThat(err.get(0)).startsWith("sonde dump: " + f + ": offset " + second + ": CRC mismatch").contains("to the next valid frame");
        assertThat(err.get(1)).startsWith("sonde dump: " + f + ": offset " + (757 + 32) + ": 1 frame missing");
        assertThat(err.get(2)).startsWith("sonde dump: " + f + ": offset " + trailer + ": CRC mismatch").endsWith("to the end of the input");
        assertThat(lines(r[1])).last().asString().startsWith("end: INCOMPLETE, ").contains(" records, 3 problem(s)");
    }

    @Test
    void everyDamagedStreamOfAFolderIsReportedNotJustTheFirst() throws Exception {
        byte[] minimal = GoldenFiles.bytes("minimal.sonde");
        minimal[minimal.length - 5] ^= 0x10; // inside the trailer frame: CRC mismatch there
        Files.write(tmp.resolve("minimal.sonde"), minimal);
        Path agent = Files.createDirectories(tmp.resolve(GoldenScenarios.ROLLED_AGENT.toString()));
        List<String> segments = List.copyOf(GoldenScenarios.rolled().keySet());
        for (String name : segments) {
            GoldenFiles.copyTo("rolled/" + name, agent);
        }
        Path second = agent.resolve(segments.get(1));
        byte[] b = Files.readAllBytes(second);
        Files.write(second, Arrays.copyOf(b, b.length - 3)); // the last frame cut short
        Object[] r = run("dump", tmp.toString());
        assertThat(r[0]).isEqualTo(1);
        List<String> err = lines(r[2]);
        assertThat(err).hasSize(2);
        assertThat(err.get(0)).startsWith("sonde dump: " + tmp.resolve("minimal.sonde") + ": offset ").contains("CRC mismatch");
        assertThat(err.get(1)).startsWith("sonde dump: " + second + ": offset ").contains(": input ended inside the frame",
                "(detected at offset " + (b.length - 3) + "); skipped bytes ");
    }

    @Test
    void truncatedFileWithoutTrailerIsReportedButNotAnError() throws Exception {
        byte[] b = Arrays.copyOf(GoldenFiles.bytes("full.sonde"), 757);
        Path f = tmp.resolve("cut.sonde");
        Files.write(f, b);
        Object[] r = run("dump", f.toString());
        assertThat(r[0]).isEqualTo(0);
        assertThat(lines(r[1])).last().isEqualTo("end: INCOMPLETE, 12 records: " + f + ": stream ended without trailer at offset 757");
    }

    @Test
    void badArguments() {
        Object[] missing = run("dump", tmp.resolve("nope.sonde").toString());
        assertThat(missing[0]).isEqualTo(1);
        assertThat((String) missing[2]).isEqualTo("sonde dump: " + tmp.resolve("nope.sonde") + ": offset 0: no such file or directory" + System.lineSeparator());
        Object[] empty = run("dump", tmp.toString());
        assertThat(empty[0]).isEqualTo(1);
        assertThat((String) empty[2]).contains("no .sonde files found");
        Object[] negative = run("dump", tmp.toString(), "--limit", "-3");
        assertThat(negative[0]).isEqualTo(2);
        assertThat((String) negative[2]).contains("--limit must be 0 or more, got -3");
        Object[] garbage = run("dump", "x", "--limit", "many");
        assertThat(garbage[0]).isEqualTo(2);
    }
}
