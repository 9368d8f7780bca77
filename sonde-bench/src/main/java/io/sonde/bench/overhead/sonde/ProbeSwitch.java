package io.sonde.bench.overhead.sonde;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Switches Sonde's probes in a running JVM of this machine through the agent's MBean
 * ({@code io.sonde:type=Probes}), reached by the attach API's local JMX connector. The agent keeps
 * the switch as a rule, so probes of classes loaded afterwards start in that state too.
 */
final class ProbeSwitch {

    static final String OBJECT_NAME = "io.sonde:type=Probes";

    private ProbeSwitch() {}

    /**
     * Calls {@code disable(pattern)} on the agent in JVM {@code pid}, waiting up to
     * {@code timeoutMillis} for the MBean to appear.
     *
     * @throws IOException naming the pid and what failed
     */
    static void disable(long pid, String pattern, long timeoutMillis) throws IOException {
        String url;
        VirtualMachine vm;
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (true) {
            try {
                vm = VirtualMachine.attach(Long.toString(pid));
                break;
            } catch (Exception e) {
                // the attach listener may not be up yet right after launch
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("cannot attach to JVM " + pid + ": " + e.getMessage());
                }
                sleep(20);
            }
        }
        try {
            url = vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
        try (JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(url))) {
            MBeanServerConnection server = connector.getMBeanServerConnection();
            ObjectName name = new ObjectName(OBJECT_NAME);
            while (!server.isRegistered(name)) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("JVM " + pid + " has no " + OBJECT_NAME + " MBean (is the Sonde agent loaded with jmx on?)");
                }
                sleep(20);
            }
            server.invoke(name, "disable", new Object[] {pattern}, new String[] {String.class.getName()});
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("JMX call disable(" + pattern + ") on JVM " + pid + " failed: " + e);
        }
    }

    private static void sleep(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }
}
