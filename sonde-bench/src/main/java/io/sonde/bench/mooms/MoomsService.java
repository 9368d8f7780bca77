package io.sonde.bench.mooms;

import javax.management.AttributeChangeNotification;
import javax.management.MBeanNotificationInfo;
import javax.management.NotificationBroadcasterSupport;

/**
 * The JMX version's attribute holder, written the way JMX applications emit attribute changes: a
 * {@link NotificationBroadcasterSupport} that sends an {@link AttributeChangeNotification} for each
 * update (public: the MBean server introspects it).
 */
public final class MoomsService extends NotificationBroadcasterSupport implements MoomsServiceMBean {
    private long attribute;
    private long sequence;

    MoomsService() {
        super(new MBeanNotificationInfo(new String[] {AttributeChangeNotification.ATTRIBUTE_CHANGE},
                AttributeChangeNotification.class.getName(), "the attribute changed"));
    }

    @Override
    public synchronized long getAttribute() {
        return attribute;
    }

    /** Sets the attribute and notifies the listeners (the broadcaster calls them on this thread). */
    void update(long value) {
        long old;
        long seq;
        synchronized (this) {
            old = attribute;
            attribute = value;
            seq = ++sequence;
        }
        sendNotification(new AttributeChangeNotification(this, seq, System.currentTimeMillis(), "attribute changed",
                "Attribute", "long", old, value));
    }
}
