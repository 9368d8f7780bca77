package io.sonde.bench.overhead.otel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** OTLP ExportTraceServiceRequests encoded by hand (protobuf wire format). */
class OtlpSpanCounterTest {

    private static void varint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static void field(ByteArrayOutputStream out, int number, byte[] body) {
        varint(out, ((long) number << 3) | 2);
        varint(out, body.length);
        out.write(body, 0, body.length);
    }

    private static byte[] span(String name, Random random) {
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        byte[] id = new byte[16];
        random.nextBytes(id);
        field(s, 1, id); // trace_id
        field(s, 2, Arrays.copyOf(id, 8)); // span_id
        field(s, 5, name.getBytes(StandardCharsets.UTF_8));
        varint(s, (6 << 3) | 0); // kind, varint
        varint(s, 1);
        varint(s, (7 << 3) | 1); // start_time_unix_nano, fixed64
        s.write(new byte[8], 0, 8);
        return s.toByteArray();
    }

    /** A request of several resources and scopes; returns it and sets counts[0] to the matching spans. */
    private static byte[] request(Random random, long[] counts) {
        ByteArrayOutputStream req = new ByteArrayOutputStream();
        int resources = 1 + random.nextInt(3);
        for (int r = 0; r < resources; r++) {
            ByteArrayOutputStream rs = new ByteArrayOutputStream();
            field(rs, 1, "resource attributes".getBytes(StandardCharsets.UTF_8));
            int scopes = 1 + random.nextInt(3);
            for (int sc = 0; sc < scopes; sc++) {
                ByteArrayOutputStream ss = new ByteArrayOutputStream();
                field(ss, 1, "scope".getBytes(StandardCharsets.UTF_8));
                int spans = random.nextInt(50);
                for (int i = 0; i < spans; i++) {
                    boolean ours = random.nextInt(4) != 0;
                    field(ss, 2, span(ours ? "MonitoredClass.monitoredMethod" : "GET /other", random));
                    if (ours) {
                        counts[0]++;
                    }
                    counts[1]++;
                }
                field(ss, 3, "https://schema".getBytes(StandardCharsets.UTF_8));
                field(rs, 2, ss.toByteArray());
            }
            field(req, 1, rs.toByteArray());
        }
        return req.toByteArray();
    }

    @Test
    void countsSpansAcrossResourcesAndScopes() throws IOException {
        Random random = new Random(99);
        for (int round = 0; round < 50; round++) {
            long[] counts = new long[2];
            byte[] body = request(random, counts);
            assertThat(OtlpSpanCounter.count(body, "MonitoredClass.monitoredMethod")).isEqualTo(counts[0]);
            assertThat(OtlpSpanCounter.count(body, "")).isEqualTo(counts[1]);
        }
    }

    @Test
    void malformedProtobufIsAnErrorWithAnOffset() {
        long[] counts = new long[2];
        byte[] body = request(new Random(1), counts);
        byte[] cut = Arrays.copyOf(body, body.length - 3);
        assertThatThrownBy(() -> OtlpSpanCounter.count(cut, "x")).isInstanceOf(IOException.class)
                .hasMessageContaining("at byte");
    }

    @Test
    void theHttpSinkCountsSpansPostedToIt() throws Exception {
        long[] counts = new long[2];
        byte[] body = request(new Random(4), counts);
        try (OtlpHttpSink sink = new OtlpHttpSink("MonitoredClass.monitoredMethod")) {
            for (int i = 0; i < 3; i++) {
                HttpURLConnection c = (HttpURLConnection) URI.create(sink.tracesEndpoint()).toURL().openConnection();
                c.setRequestMethod("POST");
                c.setDoOutput(true);
                c.setRequestProperty("Content-Type", "application/x-protobuf");
                try (OutputStream out = c.getOutputStream()) {
                    out.write(body);
                }
                assertThat(c.getResponseCode()).isEqualTo(200);
                c.disconnect();
            }
            assertThat(sink.requests()).isEqualTo(3);
            assertThat(sink.spans()).isEqualTo(3 * counts[0]);
            assertThat(sink.problems()).isEmpty();
        }
    }
}
