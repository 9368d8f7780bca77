package io.sonde.kafka.consume;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/** How far a consumer group is behind the end of a topic: records not yet committed, summed over partitions. */
public final class GroupLag {
    private GroupLag() {}

    /**
     * Records of {@code topic} past the group's committed offsets now (a partition without a
     * committed offset counts from its start).
     */
    public static long of(Admin admin, String topic, String group) throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions()
                .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
        Map<TopicPartition, OffsetAndMetadata> committed =
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        long lag = 0;
        for (var e : admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).entrySet()) {
            OffsetAndMetadata c = committed.get(e.getKey());
            lag += Math.max(0, e.getValue().offset() - (c == null ? 0 : c.offset()));
        }
        return lag;
    }

    /**
     * Waits until the group committed everything the topic holds ({@link #of} is 0).
     *
     * @throws TimeoutException if that takes longer than {@code millis}
     */
    public static void awaitCaughtUp(Admin admin, String topic, String group, long millis)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.currentTimeMillis() + millis;
        long lag;
        while ((lag = of(admin, topic, group)) > 0) {
            if (System.currentTimeMillis() > deadline) {
                throw new TimeoutException("group " + group + " still " + lag + " records behind the end of " + topic + " after " + millis + " ms");
            }
            Thread.sleep(50);
        }
    }
}
