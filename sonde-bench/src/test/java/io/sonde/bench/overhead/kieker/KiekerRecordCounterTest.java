package io.sonde.bench.overhead.kieker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.bench.overhead.sink.TcpRecordSink;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kieker streams built byte by byte in the layout Kieker 2.0.2 writes (seen in its real output). */
class KiekerRecordCounterTest {

    private static final String MARKER = ".MonitoredClass.monitoredMethod(";
    private static final String METHOD = "public long io.sonde.bench.overhead.app.MonitoredClass.monitoredMethod(long,int)";

    /** Writes registrations inline (TCP style) or not (file style; the ids then go in kieker.map). */
    private static byte[] stream(int methodRecords, int constructorRecords, boolean inlineStrings, Random random)
            throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        if (inlineStrings) {
            register(out, 0, KiekerRecordCounter.METADATA);
            register(out, 5, KiekerRecordCounter.OPERATION_EXECUTION);
            register(out, 6, "public io.sonde.bench.overhead.app.MonitoredClass()");
            register(out, 9, METHOD);
        }
        out.writeInt(0); // metadata record
        out.writeLong(1L);
        out.write(new byte[37]);
        int methods = methodRecords;
        int ctors = constructorRecords;
        while (methods + ctors > 0) {
            boolean method = ctors == 0 || (methods > 0 && random.nextBoolean());
            out.writeInt(5);
            out.writeLong(random.nextLong());
            out.writeInt(method ? 9 : 6); // operation signature id
            out.writeInt(7);
            out.writeLong(random.nextLong());
            out.writeLong(random.nextLong());
            out.writeLong(random.nextLong());
            out.writeInt(3);
            out.writeInt(random.nextInt(10));
            out.writeInt(random.nextInt(10));
            if (method) {
                methods--;
            } else {
                ctors--;
            }
        }
        return bytes.toByteArray();
    }

    private static void register(DataOutputStream out, int id, String value) throws IOException {
        byte[] text = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(-1);
        out.writeInt(id);
        out.writeInt(text.length);
        out.write(text);
    }

    @Test
    void countsOnlyTheBenchmarkedMethodInInlineStreams() throws IOException {
        Random random = new Random(7);
        for (int round = 0; round < 20; round++) {
            int methods = random.nextInt(3000);
            int ctors = random.nextInt(4);
            byte[] data = stream(methods, ctors, true, random);
            KiekerRecordCounter counter = new KiekerRecordCounter(MARKER);
            counter.consume(new DataInputStream(new ByteArrayInputStream(data)), "test stream");
            assertThat(counter.matching()).isEqualTo(methods);
            assertThat(counter.otherExecutions()).isEqualTo(ctors);
            assertThat(counter.bytes()).isEqualTo(data.length);
        }
    }

    @Test
    void readsBinaryFileWriterOutputWithItsMapFile(@TempDir Path dir) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("kieker-20261122-UTC--B"));
        Files.writeString(folder.resolve("kieker.map"), "$0=" + KiekerRecordCounter.METADATA + "\n$5="
                + KiekerRecordCounter.OPERATION_EXECUTION + "\n$6=static io.sonde.bench.overhead.app.MonitoredClass()\n$9="
                + METHOD + "\n");
        Random random = new Random(11);
        Files.write(folder.resolve("kieker-001.bin"), stream(2500, 1, false, random));
        Files.write(folder.resolve("kieker-002.bin"), Arrays.copyOfRange(stream(1000, 0, false, random), 49, 49 + 1000 * 56));
        KiekerRecordCounter counter = KiekerFiles.count(dir, MARKER);
        assertThat(counter.matching()).isEqualTo(3500);
        assertThat(counter.otherExecutions()).isEqualTo(1);
    }

    @Test
    void aTruncatedRecordIsReportedWithItsOffset() throws IOException {
        byte[] data = stream(10, 0, true, new Random(3));
        byte[] cut = Arrays.copyOf(data, data.length - 5);
        KiekerRecordCounter counter = new KiekerRecordCounter(MARKER);
        int lastStart = data.length - 56;
        assertThatThrownBy(() -> counter.consume(new DataInputStream(new ByteArrayInputStream(cut)), "peer X"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("peer X at byte " + lastStart)
                .hasMessageContaining("truncated");
    }

    @Test
    void anUnknownRecordTypeIsReportedNotGuessed() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        register(out, 1, "kieker.common.record.flow.trace.TraceMetadata");
        out.writeInt(1);
        out.writeLong(0);
        out.write(new byte[40]);
        KiekerRecordCounter counter = new KiekerRecordCounter(MARKER);
        assertThatThrownBy(() -> counter.consume(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), "f.bin"))
                .hasMessageContaining("f.bin at byte ")
                .hasMessageContaining("TraceMetadata");
    }

    @Test
    void theTcpSinkCountsWhatArrivesOverLoopback() throws Exception {
        byte[] data = stream(5000, 2, true, new Random(5));
        KiekerRecordCounter counter = new KiekerRecordCounter(MARKER);
        try (TcpRecordSink sink = new TcpRecordSink((in, peer) -> counter.consume(new DataInputStream(in), peer))) {
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), sink.port());
                    OutputStream out = socket.getOutputStream()) {
                for (int i = 0; i < data.length; i += 1000) { // in pieces, as a writer flushes
                    out.write(data, i, Math.min(1000, data.length - i));
                }
            }
            assertThat(sink.awaitDrained(10_000, 1)).isTrue();
            assertThat(sink.problems()).isEmpty();
            assertThat(sink.connections()).isEqualTo(1);
        }
        assertThat(counter.matching()).isEqualTo(5000);
        assertThat(counter.otherExecutions()).isEqualTo(2);
    }
}
