package io.sonde.core.control;

import io.sonde.core.control.ProbeControlException.Reason;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.lang.reflect.UndeclaredThrowableException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import javax.management.InstanceNotFoundException;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A JMX client of the Sonde agent's {@link ProbeControlMBean}: connects to a JVM on this machine
 * by process id (attach API, then the agent's {@link LoopbackConnector loopback-only connector},
 * started on demand) or to any JMX service URL, and hands out a typed proxy whose failures are
 * {@link ProbeControlException}s naming the target.
 *
 * <pre>{@code
 * try (ProbeControlClient agent = ProbeControlClient.attach(pid)) {
 *     agent.probes().disable("com.acme.cache.*");
 * }
 * }</pre>
 */
public final class ProbeControlClient implements AutoCloseable {

    private static final ObjectName NAME = objectName();

    private final String target;
    private final JMXConnector connector;
    private final ProbeControlMBean probes;

    private ProbeControlClient(String target, JMXConnector connector) {
        this.target = target;
        this.connector = connector;
        MBeanServerConnection server;
        try {
            server = connector.getMBeanServerConnection();
            if (!server.isRegistered(NAME)) {
                throw noAgent(target);
            }
        } catch (IOException e) {
            close();
            throw new ProbeControlException(Reason.CONNECTION, "lost the JMX connection to " + target + ": " + e.getMessage(), e);
        } catch (ProbeControlException e) {
            close();
            throw e;
        }
        this.probes = translating(JMX.newMBeanProxy(server, NAME, ProbeControlMBean.class));
    }

    /**
     * Connects to the agent in process {@code pid} on this machine (same user), starting the
     * agent's loopback connector if it does not run yet.
     *
     * @throws ProbeControlException naming the process and the cause
     */
    public static ProbeControlClient attach(long pid) {
        return attach(pid, Duration.ZERO);
    }

    /**
     * As {@link #attach(long)}, retrying for up to {@code wait} while the JVM cannot be attached
     * yet or its agent has not registered the MBean yet (a JVM just launched).
     */
    public static ProbeControlClient attach(long pid, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            try {
                return attachOnce(pid);
            } catch (ProbeControlException e) {
                boolean mayComeUp = e.reason() == Reason.ATTACH || e.reason() == Reason.NO_AGENT;
                if (!mayComeUp || System.nanoTime() - deadline >= 0) {
                    throw e;
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ProbeControlException(Reason.CONNECTION, "interrupted while connecting to process " + pid);
            }
        }
    }

    private static ProbeControlClient attachOnce(long pid) {
        String[] published;
        try (LocalJvm jvm = LocalJvm.attach(pid)) {
            Properties props = awaitMBean(jvm);
            String agentJar = props.getProperty(LoopbackConnector.AGENT_PROPERTY);
            if (agentJar == null) {
                throw noAgent("process " + pid);
            }
            published = LoopbackConnector.published(props);
            if (published == null) {
                // the running agent takes this second load as the request to start its connector
                jvm.loadAgent(Path.of(agentJar), LoopbackConnector.START_REQUEST);
                published = LoopbackConnector.published(jvm.systemProperties());
                if (published == null) {
                    throw new ProbeControlException(Reason.CONNECTION, "the agent in process " + pid
                            + " did not start its JMX connector (see the process's stderr)");
                }
            }
        }
        return connect("process " + pid, published[0], LoopbackConnector.credentials(published[1]));
    }

    /** The longest wait for an attached agent's MBean, registered right after its weaving is done. */
    private static final long MBEAN_PENDING_WAIT_NANOS = 30_000_000_000L;

    /**
     * The target's system properties once an attached agent that announced its MBean
     * ({@link AgentState#MBEAN_PENDING_PROPERTY}) has registered it, or stopped trying; at once
     * when none is announced. (A client right after {@code sonde attach} would otherwise find no
     * MBean yet.)
     */
    private static Properties awaitMBean(LocalJvm jvm) {
        long deadline = System.nanoTime() + MBEAN_PENDING_WAIT_NANOS;
        Properties props = jvm.systemProperties();
        while (props.getProperty(AgentState.MBEAN_PENDING_PROPERTY) != null
                && props.getProperty(LoopbackConnector.AGENT_PROPERTY) == null
                && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ProbeControlException(Reason.CONNECTION, "interrupted while waiting for the MBean of process " + jvm.pid());
            }
            props = jvm.systemProperties();
        }
        return props;
    }

    /**
     * Connects to a JMX service URL, e.g. a JVM's remote connector
     * ({@code service:jmx:rmi:///jndi/rmi://host:9010/jmxrmi}); {@code environment} as for
     * {@link JMXConnectorFactory#connect(JMXServiceURL, Map)} (credentials, or empty).
     */
    public static ProbeControlClient connect(String serviceUrl, Map<String, ?> environment) {
        return connect(serviceUrl, serviceUrl, environment);
    }

    private static ProbeControlClient connect(String target, String serviceUrl, Map<String, ?> environment) {
        JMXConnector c;
        try {
            c = JMXConnectorFactory.connect(new JMXServiceURL(serviceUrl), environment);
        } catch (IOException | SecurityException e) {
            throw new ProbeControlException(Reason.CONNECTION, "cannot connect to the JMX connector of " + target + ": " + e.getMessage(), e);
        }
        return new ProbeControlClient(target, c);
    }

    /** The agent's MBean; every failure of a call is a {@link ProbeControlException}. */
    public ProbeControlMBean probes() {
        return probes;
    }

    /** What this client is connected to: "process N" or the service URL. */
    public String target() {
        return target;
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException e) {
            // already closed by the other side
        }
    }

    /** Wraps the JMX proxy so that checked JMX and I/O failures become one-line exceptions. */
    private ProbeControlMBean translating(ProbeControlMBean proxy) {
        InvocationHandler h = (p, method, args) -> {
            try {
                return method.invoke(proxy, args);
            } catch (InvocationTargetException e) {
                Throwable t = e.getCause() instanceof UndeclaredThrowableException u ? u.getUndeclaredThrowable() : e.getCause();
                if (t instanceof InstanceNotFoundException) {
                    throw noAgent(target);
                }
                if (t instanceof IOException) {
                    throw new ProbeControlException(Reason.CONNECTION, "lost the JMX connection to " + target + ": " + t.getMessage(), t);
                }
                throw new ProbeControlException(Reason.CALL, "the agent in " + target + " failed on " + method.getName() + ": " + t, t);
            }
        };
        return (ProbeControlMBean) Proxy.newProxyInstance(ProbeControlMBean.class.getClassLoader(),
                new Class<?>[] {ProbeControlMBean.class}, h);
    }

    private static ProbeControlException noAgent(String target) {
        return new ProbeControlException(Reason.NO_AGENT, target + " runs no Sonde agent with its MBean " + ProbeControlMBean.OBJECT_NAME
                + " (none loaded, or loaded with jmx=off)");
    }

    private static ObjectName objectName() {
        try {
            return new ObjectName(ProbeControlMBean.OBJECT_NAME);
        } catch (MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }
}
