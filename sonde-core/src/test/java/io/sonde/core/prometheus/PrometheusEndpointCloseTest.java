package io.sonde.core.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Closing the endpoint ends a scrape in progress instead of waiting for that client's read timeout. */
@Timeout(value = 1, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PrometheusEndpointCloseTest {

    @Test
    void closeEndsAScrapeWhoseClientHasNotFinishedItsRequest() throws Exception {
        // a read timeout far beyond this test's 1 minute: a close() that waits for it fails the test
        PrometheusEndpoint endpoint = PrometheusEndpoint.start("127.0.0.1", 0, () -> "x 1\n", (int) TimeUnit.MINUTES.toMillis(10));
        try (Socket client = new Socket("127.0.0.1", endpoint.port())) {
            client.getOutputStream().write("GET /metr".getBytes(StandardCharsets.US_ASCII)); // a head never finished
            client.getOutputStream().flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!endpoint.answering()) {
                assertThat(System.nanoTime()).as("the endpoint accepted the connection within 30 s").isLessThan(deadline);
                Thread.sleep(5);
            }
            endpoint.close();
            // the old close waited for the read timeout (here 10 minutes); now it ends the connection
            assertThat(readAll(client.getInputStream())).isEmpty();
            assertThat(endpoint.answering()).isFalse();
        } finally {
            endpoint.close();
        }
    }

    private static String readAll(InputStream in) {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] b = new byte[256];
        try {
            for (int n; (n = in.read(b)) >= 0; ) got.write(b, 0, n);
        } catch (IOException reset) {
            // a reset instead of an orderly end: also no answer
        }
        return got.toString(StandardCharsets.US_ASCII);
    }
}
