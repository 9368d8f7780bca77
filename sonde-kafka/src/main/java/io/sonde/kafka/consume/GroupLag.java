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
import org.apache.kafka.common.errors.RetriableException;

/** How far a consumer group is behind the end of a topic: records not yet committed, summed over partitions. */
public final class GroupLag {
    private GroupLag() {}

    /**
     * Records of {@code topic} past the group's committed offsets now (a partition without a
     * committed offset counts from its start).
     *
     * @throws ExecutionException with Kafka's error as the cause, e.g. {@code UnknownTopicOrPartitionException}
     *     for a topic the broker does not know (yet: a topic just created may not be served for a moment)
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
     * Waits until the group committed everything the topic holds ({@link #of} is 0). Passing
     * errors (Kafka's retriable ones: a topic just created not yet served, a partition without a
     * leader yet, the group coordinator still loading) and a single answer slower than 30 s count
     * as "not yet"; other errors end the wait at once.
     *
     * @throws TimeoutException if that takes longer than {@code millis}, naming the lag or the last passing error
     * @throws ExecutionException for an error no retry can cure (e.g. authorization)
     */
    public static void awaitCaughtUp(Admin admin, String topic, String group, long millis)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (true) {
            String behind;
            try {
                long lag = of(admin, topic, group);
                if (lag == 0) {
                    return;
                }
                behind = lag + " records behind the end of " + topic;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof RetriableException)) {
                    throw e;
                }
                behind = "without an answer for " + topic + " (" + e.getCause() + ")";
            } catch (TimeoutException slow) {
                behind = "without an answer for " + topic + " (" + slow.getMessage() + ")";
            }
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("group " + group + " still " + behind + " after " + millis + " ms");
            }
            Thread.sleep(50);
        }
    }
}
