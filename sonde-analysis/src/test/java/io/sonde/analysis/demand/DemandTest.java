package io.sonde.analysis.demand;

import static io.sonde.analysis.Golden.US;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sonde.analysis.AnalysisOptions;
import io.sonde.analysis.AnalysisResult;
import io.sonde.analysis.Analyzer;
import io.sonde.analysis.Golden;
import io.sonde.analysis.ScriptedSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class DemandTest {
    static final long S = 1_000_000_000L;

    @Test
    void demandsPerThreadGroupAndOperation() throws IOException {
        ScriptedSource s = Golden.defs().range(0, 4 * S).thread(8, "io-1");
        Golden.orderTrace(s, 0);
        Golden.orderTrace(s, S);
        s.trace(8, 9).enter(8, 3, 2 * S, 0).exit(8, 3, 2 * S + 40 * US, 10 * US);
        AnalysisOptions o = new AnalysisOptions();
        o.groups.add(new DemandCollector.Group("workers", Pattern.compile("^worker-")));
        AnalysisResult r = Analyzer.run(s, o);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DemandReport.write(r, out);
        JsonNode root = new ObjectMapper().readTree(out.toByteArray());
        assertThat(root.get("schema").asText()).isEqualTo("sonde-demands/1");
        assertThat(root.get("observedSeconds").asDouble()).isEqualTo(4.0);
        JsonNode groups = root.get("groups");
        assertThat(groups).hasSize(2);
        JsonNode workers = groups.get(0);
        assertThat(workers.get("name").asText()).isEqualTo("workers");
        assertThat(workers.get("threads").asInt()).isEqualTo(1);
        JsonNode order = workers.get("operations").get(2); // completion order: query, price, order
        assertThat(order.get("operation").asText()).isEqualTo("Shop.order");
        assertThat(order.get("count").asLong()).isEqualTo(2);
        assertThat(order.get("roots").asLong()).isEqualTo(2);
        assertThat(order.get("throughputPerSecond").asDouble()).isEqualTo(0.5);
        assertThat(order.get("meanWallMillis").asDouble()).isEqualTo(1.5);
        assertThat(order.get("meanCpuMillis").asDouble()).isEqualTo(1.0);
        assertThat(order.get("meanExclusiveCpuNanos").asDouble()).isEqualTo(400.0 * US);
        JsonNode query = workers.get("operations").get(0);
        assertThat(query.get("operation").asText()).isEqualTo("Db.query");
        assertThat(query.get("meanWallNanos").asDouble()).isEqualTo(250.0 * US);
        assertThat(query.get("roots").asLong()).isEqualTo(0);
        JsonNode other = groups.get(1);
        assertThat(other.get("name").asText()).isEqualTo("other");
        assertThat(other.get("threadPattern").isNull()).isTrue();
        assertThat(other.get("operations").get(0).get("meanCpuNanos").asDouble()).isEqualTo(10.0 * US);
        JsonNode params = root.get("parameters");
        assertThat(params.get("workers_shop_order_cpu").asText()).isEqualTo("1.000ms");
        assertThat(params.get("workers_shop_order_wall").asText()).isEqualTo("1.500ms");
        assertThat(params.get("workers_db_query_wall").asText()).isEqualTo("0.250ms");
        assertThat(params.get("other_db_query_cpu").asText()).isEqualTo("0.010ms");
        assertThat(params.get("other_db_query_wall").asText()).isEqualTo("0.040ms");
    }

    @Test
    void parameterNamesAreIdentifiersAndUnique() {
        java.util.Set<String> used = new java.util.HashSet<>();
        assertThat(DemandReport.parameterName("pool", "com.acme.Shop.checkout", used)).isEqualTo("pool_shop_checkout");
        assertThat(DemandReport.parameterName("pool", "org.other.Shop.checkout", used)).isEqualTo("pool_shop_checkout_2");
        assertThat(DemandReport.parameterName("9x", "<undefined probe 3>", used)).isEqualTo("p_9x_undefined_probe_3");
    }

    @Test
    void withoutGroupsEveryThreadIsInGroupAll() {
        ScriptedSource s = Golden.defs().thread(8, "io-1");
        Golden.orderTrace(s, 0);
        s.trace(8, 9).enter(8, 3, 10).exit(8, 3, 50);
        AnalysisResult r = Analyzer.run(s, new AnalysisOptions());
        assertThat(r.demands().groups()).singleElement().satisfies(g -> {
            assertThat(g.name()).isEqualTo("all");
            assertThat(g.threadCount()).isEqualTo(2);
        });
    }
}
