package io.sonde.kafka.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.api.Counters;
import io.sonde.api.MethodProbe;
import io.sonde.api.Monitor;
import io.sonde.api.internal.MonitorAccess;
import io.sonde.core.config.SondeConfig;
import io.sonde.core.pipeline.Identity;
import io.sonde.core.pipeline.Pipeline;
import io.sonde.format.DropReason;
import io.sonde.format.Format;
import io.sonde.format.read.SondeReader;
import io.sonde.format.write.StreamHeader;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * writer=kafka against a producer whose acknowledgements the test gives (no broker): a producer's
 * first frame is alone in flight until acknowledged (KAFKA-15591, see KafkaWriter#awaitSettled),
 * and frames the producer aborts at close are counted as dropped by the agent.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class KafkaWriterTest {
    /** Acknowledges a send only when told (or at once while {@link #acknowledging}); closing fails what is pending, as KafkaProducer's forced close does. */
    static final class HeldProducer extends MockProducer<byte[], byte[]> {
        volatile boolean acknowledging;

        HeldProducer() {
            super(false, null, new ByteArraySerializer(), new ByteArraySerializer());
        }

        @Override
        public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
            Future<RecordMetadata> f = super.send(record, callback);
            if (acknowledging) {
                completeNext();
            }
            return f;
        }

        @Override
        public void close(Duration timeout) {
            while (errorNext(new KafkaException("Producer is closed forcefully."))) {
                // every send still waiting for its acknowledgement is aborted
            }
            super.close(timeout);
        }

        synchronized int sent() {
            return history().size();
        }
    }

    private static Monitor start(HeldProducer producer) {
        KafkaWriter writer = new KafkaWriter("127.0.0.1:9", "held", Map.of(), settings -> producer);
        // shutdown.timeout.ms: the writer waits 80 % of it for acknowledgements at close
        SondeConfig config = SondeConfig.of(Map.of("frame.bytes", "4096", "flush.interval.ms", "5", "policy", "block-forever",
                "shutdown.timeout.ms", "4000"));
        return MonitorAccess.of(new Pipeline(config, writer, Identity.of(UUID.randomUUID()), false));
    }

    private static void calls(Monitor m, int n) {
        MethodProbe p = m.methodProbe("shop.Cart.add", "()V");
        for (int i = 0; i < n; i++) {
            p.exit(p.enter());
        }
    }

    /** Closes the monitor and waits until its writer finished (close may return before the writer thread does under load). */
    private static Counters close(Monitor m) throws InterruptedException {
        m.close();
        Pipeline p = MonitorAccess.pipeline(m);
        awaitTrue(p::isTerminated, "the writer finished");
        return m.counters();
    }

    @Test
    void aProducersFirstFrameIsAloneInFlightUntilKafkaAcknowledgesIt() throws Exception {
        HeldProducer producer = new HeldProducer();
        Monitor m = start(producer);
        calls(m, 300); // several 4 KiB frames, all fitting in the ring while the writer waits
        Thread.sleep(300); // time in which a writer without the wait sends its data frames (not needed for the check to pass)
        assertThat(producer.sent()).as("only the registry frame is sent before Kafka acknowledged it").isEqualTo(1);

        producer.acknowledging = true;
        producer.completeNext();
        awaitTrue(() -> producer.sent() > 1, "the data frames follow the acknowledgement");
        Counters c = close(m);
        assertThat(c.dropped()).as(c.toString()).isZero();
        assertThat(c.written()).isEqualTo(600);
    }

    @Test
    void framesTheProducerAbortsAtCloseAreCountedAsDropped() throws Exception {
        HeldProducer producer = new HeldProducer();
        producer.acknowledging = true;
        Monitor m = start(producer);
        calls(m, 200);
        awaitTrue(() -> m.counters().written() == 400, "the first 400 records handed to Kafka");
        producer.acknowledging = false; // Kafka stops acknowledging: the next frames wait until close aborts them
        calls(m, 300);
        awaitTrue(() -> m.counters().written() == 1000, "the next 600 records handed to Kafka");
        Counters c = close(m);

        assertThat(c.produced()).isEqualTo(1000);
        assertThat(c.dropped()).as("the 600 records of the aborted frames: %s", c).isEqualTo(600);
        assertThat(c.dropped(DropReason.WRITER_FAILED)).isEqualTo(600);
        assertThat(c.written()).isEqualTo(400);
    }

    @Test
    void aFrameWithDefinitionsKafkaRefusesIsFollowedByTheDefinitionsAgain() throws Exception {
        HeldProducer producer = new HeldProducer();
        Monitor m = start(producer);
        awaitTrue(() -> producer.sent() == 1, "the registry frame that opens the stream");
        producer.completeNext();
        calls(m, 10); // the probe's and the thread's definitions go with these records
        // the first data frame carries definitions (they precede the first record that uses them); it may hold
        // the first records too, or the writer's drain came between the definition and them
        awaitTrue(() -> producer.sent() == 2, "the frame with the new definitions");
        calls(m, 10);
        assertThat(producer.sent()).as("nothing follows a frame with definitions before Kafka settled it").isEqualTo(2);
        producer.acknowledging = true; // first: the frames after the refusal must not wait for an acknowledgement
        producer.errorNext(new RecordTooLargeException("refused (test)"));
        awaitTrue(() -> m.counters().written() + m.counters().dropped() == 40, "every record handed to Kafka");
        Counters c = close(m);
        assertThat(c.written() + c.dropped(DropReason.WRITER_FAILED)).as(c.toString()).isEqualTo(40);
        assertThat(c.written()).as("the second calls come after the refusal").isGreaterThanOrEqualTo(20);

        // the topic as a consumer sees it: every frame but the refused one
        java.io.ByteArrayOutputStream topic = new java.io.ByteArrayOutputStream();
        topic.writeBytes(StreamHeader.bytes());
        java.util.List<ProducerRecord<byte[], byte[]>> history = producer.history();
        for (int i = 0; i < history.size(); i++) {
            if (i != 1) topic.writeBytes(history.get(i).value());
        }
        long records = 0;
        try (SondeReader r = SondeReader.of(new java.io.ByteArrayInputStream(topic.toByteArray()), "topic")) {
            while (r.next()) {
                if (r.type() == Format.ENTER) {
                    assertThat(r.probeName()).isEqualTo("shop.Cart.add");
                    records++;
                } else if (r.type() == Format.EXIT) {
                    records++;
                }
            }
            assertThat(r.trailer().written()).isEqualTo(c.written());
        }
        assertThat(records).as("the records after the refused frame can be read").isEqualTo(c.written());
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after 30 s waiting for: " + what);
            }
            Thread.sleep(10);
        }
    }
}
