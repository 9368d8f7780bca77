package io.sonde.core.live.observe;

import io.sonde.api.live.ObserveService;
import io.sonde.core.live.LiveRuntime;
import io.sonde.core.live.mib.LiveClock;
import io.sonde.observer.Observer;
import io.sonde.observer.ObserverClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/** A bare live tree with a plain observe endpoint on 127.0.0.1, and clients closed after each test. */
abstract class EndpointFixture {
    static final String TOKEN = "s3cret-token";
    static final LiveClock CLOCK = LiveClock.system();

    final LiveRuntime live = LiveRuntime.bare(CLOCK);
    final ObserveService endpoint = live.observe(0, TOKEN);
    final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) c.close();
        endpoint.close();
        live.close();
    }

    ObserverClient connect(Observer o) throws IOException {
        ObserverClient c = ObserverClient.connect("127.0.0.1", endpoint.port(), TOKEN, o);
        toClose.add(c);
        return c;
    }
}
