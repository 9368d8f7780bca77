package io.sonde.bench.mooms;

import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * The server monitored the JMX way: the attribute lives in an MBean ({@link MoomsService}) that
 * emits an {@code AttributeChangeNotification} per update, and each request registers one child
 * MBean ({@code mooms:type=Child,name=childFOO1}) and unregisters it, which makes the MBean server's
 * delegate emit an {@code MBeanServerNotification} for each (REGISTRATION, UNREGISTRATION): three
 * notifications per request, like the Sonde version's three events. Listeners read them through a
 * remote connector ({@link JmxEndpoint}).
 */
final class JmxWorkload extends Workload {
    static final ObjectName SERVICE = name("mooms:type=MoomsServer");
    static final ObjectName CHILD = name("mooms:type=Child,name=childFOO1");

    private final MBeanServer server;
    private final MoomsService service = new MoomsService();

    JmxWorkload(MBeanServer server, int work) throws Exception {
        super(work);
        this.server = server;
        server.registerMBean(service, SERVICE);
    }

    @Override
    String name() {
        return "jmx";
    }

    @Override
    void update(long value) throws Exception {
        service.update(value);
        Foo foo = new Foo(value);
        server.registerMBean(new Child(foo), CHILD);
        foo.monitored = CHILD;
        server.unregisterMBean(CHILD);
    }

    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalStateException(name, e);
        }
    }
}
