package io.sonde.agent.it;

import com.sun.tools.attach.VirtualMachine;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/** A JMX connection to another JVM on this machine, through the attach API's local connector. */
final class LocalJmx implements AutoCloseable {

    static final String PROBES = "io.sonde:type=Probes";

    private final JMXConnector connector;
    final MBeanServerConnection server;

    private LocalJmx(JMXConnector connector) throws Exception {
        this.connector = connector;
        this.server = connector.getMBeanServerConnection();
    }

    static LocalJmx connect(long pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        try {
            String url = vm.startLocalManagementAgent();
            return new LocalJmx(JMXConnectorFactory.connect(new JMXServiceURL(url)));
        } finally {
            vm.detach();
        }
    }

    /** Invokes an operation of the agent's MBean that takes one String. */
    Object invoke(String operation, String argument) throws Exception {
        return server.invoke(new ObjectName(PROBES), operation, new Object[] {argument}, new String[] {String.class.getName()});
    }

    Object attribute(String name) throws Exception {
        return server.getAttribute(new ObjectName(PROBES), name);
    }

    @Override
    public void close() throws Exception {
        connector.close();
    }
}
