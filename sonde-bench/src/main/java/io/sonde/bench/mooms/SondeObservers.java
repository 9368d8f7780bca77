package io.sonde.bench.mooms;

import io.sonde.format.observe.DeliveryQos;
import io.sonde.format.observe.ObservedEvent;
import io.sonde.observer.Observer;
import io.sonde.observer.ObserverClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * Sonde observers: each an {@link ObserverClient} with its own TCP connection (and reader thread)
 * to the server's observe endpoint, subscribed to {@link SondeWorkload#PATTERN} for value changes,
 * child added and child removed with the configuration's QoS.
 */
final class SondeObservers extends Subscribers {
    private final List<ObserverClient> clients = new ArrayList<>();

    private SondeObservers(int count) {
        super(count);
    }

    static SondeObservers connect(int port, String token, int count, DeliveryQos qos) throws IOException {
        SondeObservers o = new SondeObservers(count);
        try {
            for (int i = 0; i < count; i++) {
                int index = i;
                ObserverClient c = ObserverClient.connect("127.0.0.1", port, token, new Observer() {
                    @Override
                    public void onEvents(int subscription, List<ObservedEvent> events) {
                        o.received[index].addAndGet(events.size());
                    }

                    @Override
                    public void onOverflow(long lostNow, long lostTotal) {
                        o.lost[index].set(lostTotal);
                    }
                });
                o.clients.add(c);
                c.subscribe(SondeWorkload.PATTERN, EnumSet.of(ObservedEvent.Kind.VALUE_CHANGED, ObservedEvent.Kind.CHILD_ADDED,
                        ObservedEvent.Kind.CHILD_REMOVED), qos);
            }
            return o;
        } catch (IOException | RuntimeException e) {
            o.close();
            throw e;
        }
    }

    @Override
    public void close() {
        for (ObserverClient c : clients) c.close();
    }
}
