package io.sonde.collector.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.api.live.ObserveOptions;
import io.sonde.collector.envelope.StreamInfo;
import io.sonde.collector.naming.AgentDirectory;
import io.sonde.format.observe.AttributeReading;
import io.sonde.format.observe.DeliveryQos;
import io.sonde.format.observe.ObjectInfo;
import io.sonde.format.observe.ObservedEvent;
import io.sonde.observer.ObserverClient;
import java.io.IOException;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class NamingEndpointTest {
    private static final String TOKEN = "naming-test-token";
    private static final UUID A = UUID.fromString("00000000-0000-4000-8000-00000000000a");
    private static final UUID B = UUID.fromString("00000000-0000-4000-8000-00000000000b");

    private static StreamInfo stream(long connection, UUID agent, String host, long pid) {
        return new StreamInfo(connection, agent, host, pid, "127.0.0.1:1", System.currentTimeMillis(), new byte[12], false);
    }

    @Test
    void servesAgentsWithTheirStateAndReportsConnectsAndDisconnects() throws Exception {
        AgentDirectory dir = new AgentDirectory();
        StreamInfo a = stream(1, A, "host-a", 101);
        dir.connected(a); // known before the endpoint starts: listed too
        BlockingQueue<ObservedEvent> events = new LinkedBlockingQueue<>();
        try (NamingEndpoint naming = NamingEndpoint.start(dir, ObserveOptions.of(0, TOKEN));
                ObserverClient c = ObserverClient.connect("127.0.0.1", naming.port(), TOKEN, (sub, evs) -> events.addAll(evs))) {
            c.subscribe("agents", EnumSet.of(ObservedEvent.Kind.CHILD_ADDED, ObservedEvent.Kind.CHILD_REMOVED), DeliveryQos.immediate());
            c.subscribe("agents/*/status", EnumSet.of(ObservedEvent.Kind.VALUE_CHANGED), DeliveryQos.immediate());

            StreamInfo b = stream(2, B, "host-b", 202);
            dir.connected(b);
            ObservedEvent added = events.poll(10, TimeUnit.SECONDS);
            assertThat(added).isNotNull();
            assertThat(added.kind()).isEqualTo(ObservedEvent.Kind.CHILD_ADDED);
            assertThat(added.childPath()).isEqualTo("agents/" + B);
            ObservedEvent connected = events.poll(10, TimeUnit.SECONDS);
            assertThat(connected).isNotNull();
            assertThat(connected.path()).isEqualTo("agents/" + B + "/status");
            assertThat(connected.value()).isEqualTo("connected");

            ObserverClient.Listing l = c.list("agents/*");
            assertThat(l.objects()).extracting(ObjectInfo::path).containsExactlyInAnyOrder("agents/" + A, "agents/" + B);
            assertThat(l.objects()).extracting(ObjectInfo::type).containsOnly("Agent");
            Map<String, Object> values = values(c.get("agents/**"));
            assertThat(values).containsEntry("agents/" + A + "/host", "host-a").containsEntry("agents/" + A + "/pid", 101L)
                    .containsEntry("agents/" + B + "/host", "host-b").containsEntry("agents/" + B + "/pid", 202L)
                    .containsEntry("agents/" + A + "/status", "connected").containsEntry("agents/" + A + "/connections", 1L)
                    .containsEntry("agents/" + A + "/firstSeen", Instant.ofEpochMilli(a.connectedMillis()).toString())
                    .containsKeys("agents/" + A + "/lastSeen", "agents/" + A + "/frames");

            dir.seen(A, System.currentTimeMillis());
            dir.seen(A, System.currentTimeMillis());
            dir.disconnected(a, System.currentTimeMillis());
            ObservedEvent gone = events.poll(10, TimeUnit.SECONDS);
            assertThat(gone).isNotNull();
            assertThat(gone.path()).isEqualTo("agents/" + A + "/status");
            assertThat(gone.value()).isEqualTo("disconnected");
            values = values(c.get("agents/" + A + "/*"));
            assertThat(values).containsEntry("agents/" + A + "/status", "disconnected").containsEntry("agents/" + A + "/frames", 2L);
            assertThat(values(c.get("collector/*"))).containsEntry("collector/observers", 1L).containsEntry("collector/agents", 2L);
            assertThat(naming.tree().find("jvm")).as("the collector's own JVM metrics are not in the naming tree").isEmpty();
        }
    }

    @Test
    void refusesAWrongTokenAndNeedsOne() throws Exception {
        AgentDirectory dir = new AgentDirectory();
        try (NamingEndpoint naming = NamingEndpoint.start(dir, ObserveOptions.of(0, TOKEN))) {
            assertThatThrownBy(() -> ObserverClient.connect("127.0.0.1", naming.port(), "wrong", (s, e) -> {}).close())
                    .isInstanceOf(IOException.class);
        }
        assertThatThrownBy(() -> NamingEndpoint.start(dir, ObserveOptions.of(0, null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a token");
    }

    private static Map<String, Object> values(List<AttributeReading> readings) {
        return readings.stream().collect(Collectors.toMap(AttributeReading::path, AttributeReading::value));
    }
}
