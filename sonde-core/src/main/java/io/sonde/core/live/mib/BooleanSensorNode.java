package io.sonde.core.live.mib;

import io.sonde.api.live.BooleanSensor;
import io.sonde.api.live.ValueType;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** A boolean sensor; see {@link LongSensorNode}. */
public final class BooleanSensorNode extends AttributeNode implements BooleanSensor {
    private static final VarHandle VALUE = Source.handle(MethodHandles.lookup(), "value", boolean.class);

    @SuppressWarnings("unused") // through VALUE
    private boolean value;

    BooleanSensorNode(ObjectNode owner, int id, String name, String unit, String description) {
        super(owner, id, name, ValueType.BOOLEAN, unit, description, true);
    }

    @Override
    public void set(boolean v) {
        if (gate() == 0) {
            VALUE.setOpaque(this, v);
            return;
        }
        setActive(v);
    }

    private synchronized void setActive(boolean v) {
        boolean old = (boolean) VALUE.getOpaque(this);
        VALUE.setOpaque(this, v);
        if (old != v) publish(v ? 1L : 0L, null);
    }

    @Override
    public boolean get() {
        return (boolean) VALUE.getOpaque(this);
    }

    @Override
    Object currentValue() {
        return get();
    }
}
