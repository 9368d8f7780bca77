package io.sonde.core.live.mib;

import io.sonde.api.live.StringSensor;
import io.sonde.api.live.ValueType;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/** A string sensor (change means "not equals"); see {@link LongSensorNode}. */
public final class StringSensorNode extends AttributeNode implements StringSensor {
    private static final VarHandle VALUE = Source.handle(MethodHandles.lookup(), "value", String.class);

    @SuppressWarnings("unused") // through VALUE
    private String value;

    StringSensorNode(ObjectNode owner, int id, String name, String unit, String description) {
        super(owner, id, name, ValueType.STRING, unit, description, true);
    }

    @Override
    public void set(String v) {
        if (gate() == 0) {
            VALUE.setOpaque(this, v);
            return;
        }
        setActive(v);
    }

    private synchronized void setActive(String v) {
        String old = (String) VALUE.getOpaque(this);
        VALUE.setOpaque(this, v);
        if (!Objects.equals(old, v)) publish(0L, v);
    }

    @Override
    public String get() {
        return (String) VALUE.getOpaque(this);
    }

    @Override
    Object currentValue() {
        return get();
    }
}
