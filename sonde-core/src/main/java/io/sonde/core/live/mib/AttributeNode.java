package io.sonde.core.live.mib;

import io.sonde.api.live.Attribute;
import io.sonde.api.live.AttributeValue;
import io.sonde.api.live.EventKind;
import io.sonde.api.live.LiveEvent;
import io.sonde.api.live.MonitoredObject;
import io.sonde.api.live.ValueType;

/** An attribute in the tree; sensors generate VALUE_CHANGED events, supplied attributes nothing. */
public abstract class AttributeNode extends Source implements Attribute {
    private final String unit;
    private final String description;
    private final ObjectNode owner;
    private final ValueType type;

    AttributeNode(ObjectNode owner, int id, String name, ValueType type, String unit, String description,
            boolean sensor) {
        super(owner.tree, id, name, sensor ? EventKind.VALUE_CHANGED.bit() : 0);
        this.owner = owner;
        this.type = type;
        this.unit = unit == null ? "" : unit;
        this.description = description == null ? "" : description;
    }

    @Override
    String buildPath() {
        return Names.child(owner.path(), name);
    }

    @Override
    Object emitLock() {
        return this;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ValueType type() {
        return type;
    }

    @Override
    public String unit() {
        return unit;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public MonitoredObject owner() {
        return owner;
    }

    @Override
    public boolean isSensor() {
        return offered() != 0;
    }

    @Override
    public AttributeValue read() {
        return new AttributeValue(id, path(), type, unit, currentValue(), tree.clock.nanos());
    }

    /** The value boxed, as pull reports it. */
    abstract Object currentValue();

    /**
     * Generates the value-change event if the gate is still open; the caller holds this sensor's
     * lock and has already stored the new value.
     */
    final void publish(long bits, String text) {
        if (gate() == 0) return;
        emit(LiveEvent.valueChanged(id, path(), tree.clock.nanos(), type, bits, text));
    }

    @Override
    public String toString() {
        return path() + " (" + type + (unit.isEmpty() ? "" : ", " + unit) + ")";
    }
}
