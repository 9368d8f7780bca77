package io.sonde.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.kafka.consume.GroupLag;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Waiting for a group to catch up treats Kafka's passing errors as "not yet", within the caller's deadline. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class GroupLagTest {
    @Test
    void aTopicNotServedYetIsWaitedForAndTheTimeoutNamesWhy() throws Exception {
        try (Admin admin = KafkaBroker.shared().admin()) {
            // a topic the broker does not know answers UnknownTopicOrPartitionException, as one just created may for a moment
            assertThatThrownBy(() -> GroupLag.awaitCaughtUp(admin, "lag-no-such-topic", "lag-nobody", 1_500))
                    .isInstanceOf(TimeoutException.class)
                    .hasMessageContaining("group lag-nobody still without an answer for lag-no-such-topic")
                    .hasMessageContaining("UnknownTopicOrPartitionException")
                    .hasMessageContaining("after 1500 ms");
        }
    }

    @Test
    void aTopicJustCreatedHasNoLag() throws Exception {
        try (Admin admin = KafkaBroker.shared().admin()) {
            // no wait for the partitions' leaders: the first answers may still be "unknown topic"
            admin.createTopics(List.of(new NewTopic("lag-just-created", 3, (short) 1))).all().get(60, TimeUnit.SECONDS);
            GroupLag.awaitCaughtUp(admin, "lag-just-created", "lag-nobody", 60_000);
            assertThat(GroupLag.of(admin, "lag-just-created", "lag-nobody")).isZero();
        }
    }
}
