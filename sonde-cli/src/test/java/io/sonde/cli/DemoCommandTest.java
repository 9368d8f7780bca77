package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.format.Format;
import io.sonde.format.read.ReadEnd;
import io.sonde.format.read.SondeReader;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sonde demo}: the sample program's log is complete and the summary tells what it holds. */
class DemoCommandTest {
    @TempDir
    Path tmp;

    @Test
    void demoWritesACompleteLogAndSummarisesIt() throws Exception {
        Path out = tmp.resolve("demo");
        Object[] r = CliRun.run("demo", "--out", out.toString(), "--threads", "3", "--orders", "300");
        String stdout = (String) r[1];
        assertThat(r[0]).as(stdout + r[2]).isEqualTo(0);

        Matcher m = Pattern.compile("records produced (\\d+), written (\\d+), dropped (\\d+)").matcher(stdout);
        assertThat(m.find()).as(stdout).isTrue();
        long produced = Long.parseLong(m.group(1));
        long written = Long.parseLong(m.group(2));
        assertThat(m.group(3)).isEqualTo("0");
        assertThat(written).isEqualTo(produced);

        // 300 orders: 5 probed executions each (handleOrder + 4 callees, shipping skipped when payment
        // is declined), 2 records per execution, one event per completed order.
        long enters = 0, exits = 0, exceptions = 0, events = 0, data = 0;
        try (SondeReader reader = SondeReader.open(out)) {
            while (reader.next()) {
                byte t = reader.type();
                if (Format.isDataRecord(t)) data++;
                if (t == Format.ENTER || t == Format.ENTER_CPU) enters++;
                if (t == Format.EXIT || t == Format.EXIT_CPU) exits++;
                if (t == Format.EXIT_EXCEPTION || t == Format.EXIT_EXCEPTION_CPU) {
                    exceptions++;
                    assertThat(reader.exceptionClass()).endsWith("PaymentDeclinedException");
                }
                if (t == Format.EVENT) events++;
            }
            assertThat(reader.end().kind()).isEqualTo(ReadEnd.Kind.COMPLETE);
            assertThat(reader.trailer().written()).isEqualTo(written);
        }
        assertThat(data).isEqualTo(written);
        assertThat(enters).isEqualTo(exits + exceptions);
        assertThat(exceptions).isPositive();
        assertThat(events + exceptions).isEqualTo(300); // every order completes or is declined
        assertThat(enters).isEqualTo(300 * 5 - exceptions); // a declined order skips shipping
        // each order is one joined tree: its shipping step runs on a shipping thread, handed off
        // with its time (one piece per completed order beside the 300 order pieces)
        assertThat(stdout).contains("demo.shop.OrderService.handleOrder", "demo.shop.Payment.charge",
                "traces " + (300 + events) + " (per-thread pieces)",
                "Joined traces across threads: 300; pieces linked to a parent: " + events + " (" + events + " with their hand-off wait); "
                        + "unlinked pieces (parent not in the log): 0",
                "=> demo.shop.Shipping.schedule", "shop-shipping-", "* demo.shop.order (order=");
    }

    @Test
    void aBadSondeSettingIsOneLineNamingItsSource() {
        System.setProperty("sonde.policy", "sometimes");
        try {
            Object[] r = CliRun.run("demo", "--out", tmp.resolve("bad").toString(), "--orders", "10");
            assertThat(r[0]).isEqualTo(1);
            assertThat((String) r[2]).startsWith("sonde demo: ").contains("'sometimes'", "policy", "system property")
                    .doesNotContain("\tat ");
        } finally {
            System.clearProperty("sonde.policy");
        }
    }

    @Test
    void badOptionsAreOneLineErrors() {
        Object[] r = CliRun.run("demo", "--threads", "0", "--out", tmp.toString());
        assertThat(r[0]).isEqualTo(2);
        assertThat((String) r[2]).contains("--threads must be between 1 and 256, got 0");
    }
}
