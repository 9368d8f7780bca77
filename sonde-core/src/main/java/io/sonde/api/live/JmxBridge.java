package io.sonde.api.live;

import java.util.List;

/**
 * MBeans of an MBean server shown as monitored objects ({@link LiveTree#bridgeJmx}): each MBean
 * whose name matches the pattern is an object at {@code jmx/<domain>/<key=value,...>} with its
 * readable attributes of simple types (composite attributes one level down), sampled while
 * subscribed; MBeans registered later appear, unregistered ones are deleted; their JMX
 * notifications are {@link EventKind#NOTIFICATION} events. See docs/live.md for the path mapping.
 */
public interface JmxBridge extends AutoCloseable {
    /** The paths of the objects of the MBeans bridged now, in path order. */
    List<String> bridgedPaths();

    /** MBeans that could not be bridged (a name taken, a failing MBeanInfo), one line each. */
    List<String> problems();

    /** Stops following the server and deletes the bridged objects. */
    @Override
    void close();
}
