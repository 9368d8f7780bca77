package io.sonde.core.live.jmx;

import io.sonde.api.live.JmxBridge;
import io.sonde.api.live.ValueType;
import io.sonde.core.live.mib.GatedSampler;
import io.sonde.core.live.mib.MibTree;
import io.sonde.core.live.mib.ObjectNode;
import io.sonde.core.live.mib.SampledAttribute;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.management.AttributeChangeNotification;
import javax.management.Descriptor;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerDelegate;
import javax.management.MBeanServerNotification;
import javax.management.Notification;
import javax.management.NotificationBroadcaster;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenType;

/**
 * The JMX bridge: MBeans of one server, selected by an ObjectName pattern, as monitored objects.
 *
 * <ul>
 *   <li>An MBean is the object {@link JmxPaths#objectPath jmx/&lt;domain&gt;/&lt;key=value,...&gt;} of
 *       type its class name.
 *   <li>Each readable attribute of a simple type (integral: LONG, floating: DOUBLE, boolean, String)
 *       is a {@link SampledAttribute}: a pull reads the MBean now; while subscribed, the
 *       {@link GatedSampler} reads it every period and a changed value is a VALUE_CHANGED event.
 *       A {@code CompositeData} attribute is a child object of the attribute's name whose simple
 *       items are its attributes ({@code .../type=Memory/HeapMemoryUsage/used}). Other types are
 *       left out.
 *   <li>The server delegate's notifications keep the tree in step: an MBean registered later that
 *       matches appears (CHILD_ADDED at its domain's object), an unregistered one is deleted
 *       (OBJECT_DELETED, CHILD_REMOVED).
 *   <li>An MBean that emits notifications gets a listener; each notification is a NOTIFICATION
 *       event of its object (type, message, sequence number, user data as text), generated only
 *       when some subscription wants it.
 * </ul>
 *
 * Structural work (bridging, unbridging) runs on the thread that (un)registers the MBean, under
 * this bridge's lock; sampling runs on the sampler's thread.
 */
public final class MBeanBridge implements JmxBridge, NotificationListener {
    /** Handback of the delegate's notifications (MBean notifications carry their object). */
    private static final Object DELEGATE = new Object();

    private final MibTree tree;
    private final MBeanServer server;
    private final ObjectName pattern;
    private final GatedSampler sampler;
    /** Guarded by this. */
    private final Map<ObjectName, Bridged> bridged = new HashMap<>();
    private final List<String> problems = new ArrayList<>();
    private boolean closed;

    /** One bridged MBean: its object and the sampled attributes the sampler must forget with it. */
    private static final class Bridged {
        final ObjectNode node;
        final List<SampledAttribute> attributes = new ArrayList<>();
        boolean listening;

        Bridged(ObjectNode node) {
            this.node = node;
        }
    }

    private MBeanBridge(MibTree tree, MBeanServer server, ObjectName pattern, long periodMillis) {
        this.tree = tree;
        this.server = server;
        this.pattern = pattern;
        this.sampler = new GatedSampler(tree, periodMillis, "sonde-live-jmx");
    }

    /**
     * Bridges the MBeans of {@code server} matching {@code pattern} into {@code tree} and follows
     * the server's registrations until closed.
     */
    public static MBeanBridge start(MibTree tree, MBeanServer server, ObjectName pattern, long periodMillis) {
        if (server == null) throw new IllegalArgumentException("JMX bridge: the MBean server is null");
        if (pattern == null) throw new IllegalArgumentException("JMX bridge: the ObjectName pattern is null");
        MBeanBridge b = new MBeanBridge(tree, server, pattern, periodMillis);
        try {
            // listen first, then look: an MBean registered in between is bridged once (bridge() is idempotent)
            server.addNotificationListener(MBeanServerDelegate.DELEGATE_NAME, b, null, DELEGATE);
        } catch (InstanceNotFoundException e) {
            throw new IllegalStateException("JMX bridge: the server has no delegate MBean", e);
        }
        for (ObjectName n : server.queryNames(pattern, null)) b.bridge(n);
        return b;
    }

    @Override
    public void handleNotification(Notification n, Object handback) {
        if (handback == DELEGATE) {
            if (!(n instanceof MBeanServerNotification)) return;
            ObjectName name = ((MBeanServerNotification) n).getMBeanName();
            if (!pattern.apply(name)) return;
            if (MBeanServerNotification.REGISTRATION_NOTIFICATION.equals(n.getType())) {
                bridge(name);
            } else if (MBeanServerNotification.UNREGISTRATION_NOTIFICATION.equals(n.getType())) {
                unbridge(name);
            }
        } else if (handback instanceof ObjectNode) {
            ((ObjectNode) handback).sendNotification(n.getType(), n.getMessage(), n.getSequenceNumber(), userData(n));
        }
    }

    /** The user data as text; for an attribute change without user data, what changed. */
    static String userData(Notification n) {
        Object data = n.getUserData();
        if (data != null) return String.valueOf(data);
        if (n instanceof AttributeChangeNotification) {
            AttributeChangeNotification a = (AttributeChangeNotification) n;
            return a.getAttributeName() + ": " + a.getOldValue() + " -> " + a.getNewValue();
        }
        return null;
    }

    private synchronized void bridge(ObjectName name) {
        if (closed || bridged.containsKey(name)) return;
        String path = JmxPaths.objectPath(name);
        try {
            MBeanInfo info = server.getMBeanInfo(name);
            ObjectNode domain = tree.object(JmxPaths.domainPath(name), "JmxDomain");
            ObjectNode node = (ObjectNode) domain.createChild(JmxPaths.escape(name.getKeyPropertyListString()),
                    info.getClassName() == null ? "MBean" : info.getClassName());
            Bridged b = new Bridged(node);
            bridged.put(name, b);
            for (MBeanAttributeInfo a : info.getAttributes()) {
                if (a.isReadable()) addAttribute(b, name, a);
            }
            if (server.isInstanceOf(name, NotificationBroadcaster.class.getName())) {
                server.addNotificationListener(name, this, null, node);
                b.listening = true;
            }
        } catch (InstanceNotFoundException gone) {
            unbridge(name); // unregistered while we looked: its unregistration may have come first
        } catch (Exception | LinkageError e) {
            problems.add(path + ": " + e);
        }
    }

    private void addAttribute(Bridged b, ObjectName name, MBeanAttributeInfo a) {
        String attr = a.getName();
        ValueType t = JmxTypes.simpleType(a.getType());
        if (t != null) {
            Supplier<Object> read = () -> JmxTypes.convert(readAttribute(name, attr), t);
            add(b, b.node, JmxPaths.escape(attr), t, unit(a.getDescriptor()), a.getDescription(), read);
            return;
        }
        if (!CompositeData.class.getName().equals(a.getType())) return;
        CompositeType ct = compositeType(name, a);
        if (ct == null) return;
        ObjectNode part = null;
        for (String key : ct.keySet()) {
            ValueType kt = JmxTypes.simpleType(ct.getType(key).getClassName());
            if (kt == null) continue;
            if (part == null) part = (ObjectNode) b.node.createChild(JmxPaths.escape(attr), ct.getTypeName());
            Supplier<Object> read = () -> {
                Object c = readAttribute(name, attr);
                return c instanceof CompositeData && ((CompositeData) c).containsKey(key)
                        ? JmxTypes.convert(((CompositeData) c).get(key), kt) : null;
            };
            add(b, part, JmxPaths.escape(key), kt, "", ct.getDescription(key), read);
        }
    }

    private void add(Bridged b, ObjectNode owner, String name, ValueType t, String unit, String description,
            Supplier<Object> read) {
        SampledAttribute s = tree.sampled(owner, name, t, unit, description, read);
        b.attributes.add(s);
        sampler.add(s, s::sample);
    }

    /** The composite type: from the MXBean descriptor's open type, else from a value read now. */
    private CompositeType compositeType(ObjectName name, MBeanAttributeInfo a) {
        Descriptor d = a.getDescriptor();
        Object open = d == null ? null : d.getFieldValue("openType");
        if (open instanceof CompositeType) return (CompositeType) open;
        if (open instanceof OpenType) return null;
        Object v = readAttribute(name, a.getName());
        return v instanceof CompositeData ? ((CompositeData) v).getCompositeType() : null;
    }

    private static String unit(Descriptor d) {
        Object u = d == null ? null : d.getFieldValue("units");
        return u == null ? "" : u.toString();
    }

    /** The attribute's value now, or null if the MBean cannot give it (gone, failing, unsupported). */
    private Object readAttribute(ObjectName name, String attribute) {
        try {
            return server.getAttribute(name, attribute);
        } catch (Exception | LinkageError e) {
            return null;
        }
    }

    private synchronized void unbridge(ObjectName name) {
        Bridged b = bridged.remove(name);
        if (b == null) return;
        b.node.delete(); // OBJECT_DELETED, CHILD_REMOVED; closes the gates of its attributes
        for (SampledAttribute s : b.attributes) sampler.remove(s);
    }

    /** Samples every bridged attribute whose gate is open now (what the sampler thread does each period). */
    public int sampleOnce() {
        return sampler.sampleOnce();
    }

    @Override
    public synchronized List<String> bridgedPaths() {
        List<String> out = new ArrayList<>();
        for (Bridged b : bridged.values()) out.add(b.node.path());
        Collections.sort(out);
        return out;
    }

    @Override
    public synchronized List<String> problems() {
        return new ArrayList<>(problems);
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
        }
        try {
            server.removeNotificationListener(MBeanServerDelegate.DELEGATE_NAME, this);
        } catch (Exception ignored) {
            // the server is gone: nothing to stop
        }
        synchronized (this) {
            for (Map.Entry<ObjectName, Bridged> e : new ArrayList<>(bridged.entrySet())) {
                if (e.getValue().listening) {
                    try {
                        server.removeNotificationListener(e.getKey(), this);
                    } catch (Exception ignored) {
                        // unregistered meanwhile: its listeners went with it
                    }
                }
                unbridge(e.getKey());
            }
        }
        sampler.close();
    }
}
