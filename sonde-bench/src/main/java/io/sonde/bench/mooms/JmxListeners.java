package io.sonde.bench.mooms;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.management.AttributeChangeNotification;
import javax.management.MBeanServerConnection;
import javax.management.MBeanServerDelegate;
import javax.management.MBeanServerNotification;
import javax.management.NotificationListener;
import javax.management.relation.MBeanServerNotificationFilter;
import javax.management.remote.JMXConnectionNotification;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * JMX listeners: each its own {@link JMXConnector} (own RMI connection and notification-fetching
 * thread) to the server's connector, listening to the attribute holder's
 * {@code AttributeChangeNotification}s and to the delegate's {@code MBeanServerNotification}s about
 * the child MBean (filtered on the server side). Lost notifications are what the connector reports
 * in {@code jmx.remote.connection.notifs.lost} (the server's notification buffer overran).
 */
final class JmxListeners extends Subscribers {
    private final List<JMXConnector> connectors = new ArrayList<>();

    private JmxListeners(int count) {
        super(count);
    }

    static JmxListeners connect(JMXServiceURL url, int count) throws Exception {
        JmxListeners l = new JmxListeners(count);
        try {
            for (int i = 0; i < count; i++) {
                int index = i;
                JMXConnector c = JMXConnectorFactory.connect(url);
                l.connectors.add(c);
                c.addConnectionNotificationListener((n, handback) -> {
                    if (JMXConnectionNotification.NOTIFS_LOST.equals(n.getType()) && n.getUserData() instanceof Long lost) {
                        l.lost[index].addAndGet(lost);
                    }
                }, null, null);
                NotificationListener counter = (n, handback) -> {
                    if (n instanceof AttributeChangeNotification || n instanceof MBeanServerNotification) {
                        l.received[index].incrementAndGet();
                    }
                };
                MBeanServerConnection m = c.getMBeanServerConnection();
                m.addNotificationListener(JmxWorkload.SERVICE, counter, null, null);
                MBeanServerNotificationFilter children = new MBeanServerNotificationFilter();
                children.disableAllObjectNames();
                children.enableObjectName(JmxWorkload.CHILD);
                m.addNotificationListener(MBeanServerDelegate.DELEGATE_NAME, counter, children, null);
            }
            return l;
        } catch (Exception e) {
            l.close();
            throw e;
        }
    }

    @Override
    public void close() {
        for (JMXConnector c : connectors) {
            try {
                c.close();
            } catch (IOException ignored) {
                // the connection is gone either way
            }
        }
    }
}
