package io.sonde.core.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.core.prometheus.PrometheusParser.Family;
import io.sonde.core.prometheus.PrometheusParser.Sample;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Scrapes a {@code /metrics} endpoint over HTTP with the JDK's client and reads the strictly parsed
 * answer ({@link PrometheusParser}); for the tests of the agent's and the collector's endpoints.
 */
public final class Scrape {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private Scrape() {}

    /** One scrape, the raw answer. */
    public static HttpResponse<String> get(URI uri) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Scrapes until {@code done} holds (bounded: 60 s), parsing each answer strictly. */
    public static Map<String, Family> poll(URI uri, Predicate<Map<String, Family>> done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Map<String, Family> last;
        do {
            HttpResponse<String> r = get(uri);
            assertThat(r.statusCode()).isEqualTo(200);
            last = PrometheusParser.parse(r.body());
            if (done.test(last)) return last;
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("metrics did not reach the expected state within 60 s; last scrape: " + last);
    }

    /** The sum of a family's samples (0 if absent). */
    public static double sum(Map<String, Family> m, String family) {
        Family f = m.get(family);
        return f == null ? 0 : f.samples().stream().mapToDouble(Sample::value).sum();
    }

    /** The one sample named {@code name} whose labels include {@code labels}. */
    public static double value(Map<String, Family> m, String name, Map<String, String> labels) {
        String family = name.replaceAll("_(bucket|sum|count)$", "");
        Family f = m.containsKey(name) ? m.get(name) : m.get(family);
        assertThat(f).as("family of " + name).isNotNull();
        List<Sample> found = f.samples().stream().filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
                .toList();
        assertThat(found).as(name + " " + labels).hasSize(1);
        return found.get(0).value();
    }

    /** The cumulative count of {@code sonde_operation_duration_seconds} at bound {@code le} for the series {@code labels}. */
    public static double bucket(Map<String, Family> m, Map<String, String> labels, String le) {
        Map<String, String> withLe = new HashMap<>(labels);
        withLe.put("le", le);
        return value(m, "sonde_operation_duration_seconds_bucket", withLe);
    }
}
