package io.sonde.core.live.mib;

import io.sonde.api.live.Attribute;
import io.sonde.api.live.BooleanSensor;
import io.sonde.api.live.DoubleSensor;
import io.sonde.api.live.EventKind;
import io.sonde.api.live.LiveEvent;
import io.sonde.api.live.LongSensor;
import io.sonde.api.live.MonitoredObject;
import io.sonde.api.live.Notification;
import io.sonde.api.live.StringSensor;
import io.sonde.api.live.ValueType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A monitored object, and its object sensor (CHILD_ADDED, CHILD_REMOVED, OBJECT_DELETED,
 * NOTIFICATION). Its
 * structure is changed only under the tree's lock, which also orders its events.
 */
public final class ObjectNode extends Source implements MonitoredObject {
    static final int OBJECT_KINDS = EventKind.CHILD_ADDED.bit() | EventKind.CHILD_REMOVED.bit()
            | EventKind.OBJECT_DELETED.bit() | EventKind.NOTIFICATION.bit();

    /** Members above which a name index is kept; below, a lookup walks the (short) list. */
    static final int INDEX_FROM = 8;

    private final String type;
    private final ObjectNode parent;
    /** Guarded by the tree's lock: the members (attributes and children) in creation order. */
    private Source firstMember;
    private Source lastMember;
    private int memberCount;
    /** Guarded by the tree's lock: name to member, built once the object has many members, else null. */
    private HashMap<String, Source> index;

    ObjectNode(MibTree tree, int id, ObjectNode parent, String name, String type) {
        super(tree, id, name, OBJECT_KINDS);
        this.parent = parent;
        this.type = type;
    }

    @Override
    String buildPath() {
        return parent == null ? "" : Names.child(parent.path(), name);
    }

    // ---- members, under the tree's lock ----

    /** The member called {@code name}, or null. */
    Source member(String name) {
        if (index != null) return index.get(name);
        for (Source s = firstMember; s != null; s = s.nextMember) {
            if (s.name.equals(name)) return s;
        }
        return null;
    }

    /** The first member, to walk the list with {@link Source#nextMember}. */
    Source firstMember() {
        return firstMember;
    }

    void addMember(Source s) {
        s.prevMember = lastMember;
        if (lastMember == null) firstMember = s;
        else lastMember.nextMember = s;
        lastMember = s;
        memberCount++;
        if (index != null) {
            index.put(s.name, s);
        } else if (memberCount > INDEX_FROM) {
            index = new HashMap<>();
            for (Source m = firstMember; m != null; m = m.nextMember) index.put(m.name, m);
        }
    }

    void removeMember(Source s) {
        if (s.prevMember == null) firstMember = s.nextMember;
        else s.prevMember.nextMember = s.nextMember;
        if (s.nextMember == null) lastMember = s.prevMember;
        else s.nextMember.prevMember = s.prevMember;
        s.prevMember = null;
        s.nextMember = null;
        memberCount--;
        if (index != null) index.remove(s.name, s);
    }

    private <T> List<T> members(Class<T> kind) {
        synchronized (tree.lock) {
            List<T> out = new ArrayList<>();
            for (Source s = firstMember; s != null; s = s.nextMember) {
                if (kind.isInstance(s)) out.add(kind.cast(s));
            }
            return out;
        }
    }

    private <T> Optional<T> member(String name, Class<T> kind) {
        synchronized (tree.lock) {
            Source s = member(name);
            return kind.isInstance(s) ? Optional.of(kind.cast(s)) : Optional.empty();
        }
    }

    @Override
    Object emitLock() {
        return tree.lock;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String type() {
        return type;
    }

    @Override
    public MonitoredObject parent() {
        return parent;
    }

    ObjectNode parentNode() {
        return parent;
    }

    @Override
    public List<MonitoredObject> children() {
        return members(MonitoredObject.class);
    }

    @Override
    public Optional<MonitoredObject> child(String name) {
        return member(name, MonitoredObject.class);
    }

    @Override
    public List<Attribute> attributes() {
        return members(Attribute.class);
    }

    @Override
    public Optional<Attribute> attribute(String name) {
        return member(name, Attribute.class);
    }

    @Override
    public MonitoredObject createChild(String name, String type) {
        return tree.createChild(this, name, type, false);
    }

    @Override
    public MonitoredObject getOrCreateChild(String name, String type) {
        return tree.createChild(this, name, type, true);
    }

    @Override
    public void delete() {
        tree.delete(this);
    }

    @Override
    public boolean isDeleted() {
        return isRemoved();
    }

    @Override
    public void sendNotification(String type, String message, long sequence, String userData) {
        if ((gate() & EventKind.NOTIFICATION.bit()) == 0) return;
        Notification n = new Notification(type, message, sequence, userData);
        synchronized (tree.lock) { // the object's emit lock: its events stay in order
            if ((gate() & EventKind.NOTIFICATION.bit()) == 0) return;
            emit(LiveEvent.notification(id, path(), tree.clock.nanos(), n));
        }
    }

    @Override
    public LongSensor longSensor(String name, String unit, String description) {
        return (LongSensor) tree.addSensor(this, ValueType.LONG, name, unit, description);
    }

    @Override
    public DoubleSensor doubleSensor(String name, String unit, String description) {
        return (DoubleSensor) tree.addSensor(this, ValueType.DOUBLE, name, unit, description);
    }

    @Override
    public BooleanSensor booleanSensor(String name, String unit, String description) {
        return (BooleanSensor) tree.addSensor(this, ValueType.BOOLEAN, name, unit, description);
    }

    @Override
    public StringSensor stringSensor(String name, String unit, String description) {
        return (StringSensor) tree.addSensor(this, ValueType.STRING, name, unit, description);
    }

    @Override
    public Attribute longAttribute(String name, String unit, String description, LongSupplier supplier) {
        Objects.requireNonNull(supplier, "supplier");
        return supplied(name, ValueType.LONG, unit, description, supplier::getAsLong);
    }

    @Override
    public Attribute doubleAttribute(String name, String unit, String description, DoubleSupplier supplier) {
        Objects.requireNonNull(supplier, "supplier");
        return supplied(name, ValueType.DOUBLE, unit, description, supplier::getAsDouble);
    }

    @Override
    public Attribute booleanAttribute(String name, String unit, String description, BooleanSupplier supplier) {
        Objects.requireNonNull(supplier, "supplier");
        return supplied(name, ValueType.BOOLEAN, unit, description, supplier::getAsBoolean);
    }

    @Override
    public Attribute stringAttribute(String name, String unit, String description, Supplier<String> supplier) {
        Objects.requireNonNull(supplier, "supplier");
        return supplied(name, ValueType.STRING, unit, description, supplier::get);
    }

    private Attribute supplied(String name, ValueType t, String unit, String description, Supplier<Object> s) {
        return tree.addAttribute(this, name, id -> new SuppliedAttribute(this, id, name, t, unit, description, s));
    }

    @Override
    public String toString() {
        return (parent == null ? "<root>" : path()) + " : " + type + " #" + id;
    }
}
