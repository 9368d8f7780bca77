package io.sonde.dashboard.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.analysis.input.TimeRange;
import org.junit.jupiter.api.Test;

class RecordedLogTest {
    static long bucket(long spanNanos) {
        return RecordedLog.bucketFor(new TimeRange(1_000, 1_000 + spanNanos));
    }

    @Test
    void bucketsAreNiceWidthsGivingAboutAChartsWorth() {
        assertThat(RecordedLog.bucketFor(null)).isZero();
        assertThat(bucket(0)).isEqualTo(1_000_000L); // never below 1 ms
        assertThat(bucket(1_000_000_000L)).isEqualTo(10_000_000L); // 1 s: 8.3 ms -> 10 ms, 100 buckets
        assertThat(bucket(60_000_000_000L)).isEqualTo(500_000_000L); // 1 min: 0.5 s, 120 buckets
        assertThat(bucket(3_600_000_000_000L)).isEqualTo(50_000_000_000L); // 1 h: 50 s, 72 buckets
        for (long span = 1; span < 1L << 50; span = span * 3 + 7) {
            long b = bucket(span);
            assertThat(span / b).as("span %d width %d", span, b).isLessThanOrEqualTo(RecordedLog.TARGET_BUCKETS);
            long digits = b;
            while (digits % 10 == 0) digits /= 10;
            assertThat(digits).isIn(1L, 2L, 5L);
        }
    }
}
