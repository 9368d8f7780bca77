package io.sonde.bench.overhead.sonde;

import io.sonde.core.control.ProbeControlClient;
import io.sonde.core.control.ProbeControlException;
import java.io.IOException;
import java.time.Duration;

/**
 * Switches Sonde's probes in a running JVM of this machine through the agent's MBean, with
 * {@link ProbeControlClient}. The agent keeps the switch as a rule, so probes of classes loaded
 * afterwards start in that state too.
 */
final class ProbeSwitch {

    private ProbeSwitch() {}

    /**
     * Calls {@code disable(pattern)} on the agent in JVM {@code pid}, waiting up to
     * {@code timeoutMillis} for the JVM to accept the attach and for the agent's MBean to appear.
     *
     * @throws IOException naming the pid and what failed
     */
    static void disable(long pid, String pattern, long timeoutMillis) throws IOException {
        try (ProbeControlClient agent = ProbeControlClient.attach(pid, Duration.ofMillis(timeoutMillis))) {
            agent.probes().disable(pattern);
        } catch (ProbeControlException e) {
            throw new IOException("switching probes " + pattern + " off in JVM " + pid + ": " + e.getMessage(), e);
        }
    }
}
