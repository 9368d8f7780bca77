package io.sonde.cli.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.cli.UsageError;
import io.sonde.format.observe.ObservedEvent;
import io.sonde.format.observe.ObservedEvent.Kind;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The pieces of the live commands without a process: the terminal view, addresses, durations, JSON. */
class WatchViewTest {
    private static final long S = 1_000_000_000L;

    private static ObservedEvent value(String path, Object v) {
        return new ObservedEvent(Kind.VALUE_CHANGED, 1, path, 5, v, 0, null);
    }

    @Test
    void viewShowsOneRowPerPathWithLatestValueRateAndAgeInNaturalOrder() {
        long t0 = 1000 * S;
        WatchView v = new WatchView(t0);
        for (int i = 0; i < 10; i++) v.add(value("shop/stock/apple/level", (long) i), t0 + i * S / 5); // 10 in 2 s
        v.add(value("shop/workers/10/busy", true), t0);
        v.add(value("shop/workers/9/busy", false), t0);
        v.add(new ObservedEvent(Kind.CHILD_ADDED, 2, "shop/orders", 5, null, 3, "shop/orders/17"), t0);
        String screen = v.render("head", t0 + 2 * S, 30, 200);
        assertThat(screen).startsWith("\033[H\033[2Jhead\033[K\n").endsWith("\033[J");
        String[] lines = screen.split("\n");
        assertThat(lines[1]).startsWith("PATH").contains("VALUE", "RATE", "LAST EVENT");
        assertThat(lines[2]).matches("shop/orders +\\+ 17 +- +2\\.0 s ago\033\\[K"); // one event: no rate yet
        assertThat(lines[3]).matches("shop/stock/apple/level +9 +5\\.0/s +0\\.2 s ago\033\\[K");
        assertThat(lines[4]).startsWith("shop/workers/9/busy").contains("false");
        assertThat(lines[5]).startsWith("shop/workers/10/busy").contains("true");
        // redraws go home without clearing; a deleted object leaves with its attributes
        v.add(new ObservedEvent(Kind.OBJECT_DELETED, 4, "shop/workers/9", 6, null, 0, null), t0);
        String again = v.render("head", t0 + 2 * S, 2, 200);
        assertThat(again).startsWith("\033[Hhead").doesNotContain("workers/9").contains("... 1 more (narrow the pattern)");
    }

    @Test
    void addressesAndDurations() {
        assertThat(ObserveAddress.parse("127.0.0.1:7712/shop/orders/", true)).isEqualTo(new ObserveAddress("127.0.0.1", 7712, "shop/orders"));
        assertThat(ObserveAddress.parse("[::1]:7712", false).endpoint()).isEqualTo("[::1]:7712");
        assertThat(ObserveAddress.parse("host:1/", true).path()).isEmpty();
        assertThatThrownBy(() -> ObserveAddress.parse("host:1/x", false)).isInstanceOf(UsageError.class).hasMessageContaining("without a path");
        assertThatThrownBy(() -> ObserveAddress.parse("::1:7712", false)).isInstanceOf(UsageError.class);
        assertThatThrownBy(() -> ObserveAddress.parse(":7712", false)).hasMessageContaining("expected HOST:PORT");
        assertThatThrownBy(() -> ObserveAddress.parse("h:+7", false)).hasMessageContaining("port '+7'");
        assertThatThrownBy(() -> ObserveAddress.parse("h:0", false)).hasMessageContaining("between 1 and 65535");
        assertThat(Durations.parse("--flush", "50ms")).isEqualTo(Duration.ofMillis(50));
        assertThat(Durations.parse("--flush", "2s")).isEqualTo(Duration.ofSeconds(2));
        assertThat(Durations.parse("--flush", "1m")).isEqualTo(Duration.ofMinutes(1));
        assertThatThrownBy(() -> Durations.parse("--period", "2")).isInstanceOf(UsageError.class).hasMessageStartingWith("--period '2'");
        assertThatThrownBy(() -> Durations.parse("--period", "0s")).hasMessageContaining("longer than 0");
    }

    @Test
    void jsonOfEventsAndValues() {
        assertThat(WatchView.text(145.8995673813506)).isEqualTo("145.9");
        assertThat(WatchView.text(2.5e-9)).isEqualTo("2.5E-9");
        assertThat(WatchView.text(0.0)).isEqualTo("0.0");
        assertThat(JsonText.value(Double.NaN)).isEqualTo("\"NaN\"");
        assertThat(JsonText.value(1.5)).isEqualTo("1.5");
        assertThat(JsonText.value("a\"b\n")).isEqualTo("\"a\\\"b\\n\"");
        assertThat(JsonText.value(null)).isEqualTo("null");
        assertThat(WatchCommand.json(new ObservedEvent(Kind.CHILD_REMOVED, 2, "shop/orders", 77, null, 3, "shop/orders/17"), 1, 4))
                .isEqualTo("{\"path\": \"shop/orders\", \"event\": \"CHILD_REMOVED\", \"value\": null, \"time_ns\": 77, \"id\": 2,"
                        + " \"subscription\": 1, \"delivery\": 4, \"child\": \"shop/orders/17\", \"child_id\": 3}");
    }

    @Test
    void notificationsAsJsonAndText() {
        var n = new io.sonde.format.observe.ObservedNotification("jmx.attribute.change", "Size changed", 9, null);
        ObservedEvent e = new ObservedEvent(Kind.NOTIFICATION, 5, "jmx/app/type=Cache", 88, null, 0, null, n);
        assertThat(WatchCommand.json(e, 2, 6)).isEqualTo("{\"path\": \"jmx/app/type=Cache\", \"event\": \"NOTIFICATION\", \"value\": null,"
                + " \"time_ns\": 88, \"id\": 5, \"subscription\": 2, \"delivery\": 6, \"notification\": {\"type\": \"jmx.attribute.change\","
                + " \"message\": \"Size changed\", \"sequence\": 9, \"user_data\": null}}");
        assertThat(WatchCommand.line(e)).endsWith("jmx/app/type=Cache  ! jmx.attribute.change: Size changed");
    }
}
