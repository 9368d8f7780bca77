package io.sonde.core.live.mib;

import io.sonde.api.live.ValueType;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A sensor whose value lives elsewhere (an MBean attribute): pull calls the reader now, and
 * {@link #sample()} (from a {@link GatedSampler}, only while the gate is open) stores the reading
 * and, if it differs from the last one stored, generates a VALUE_CHANGED event. The reader returns
 * a Long, Double, Boolean or String of the attribute's type, or null when the value cannot be
 * read now (then pull reports null and sampling generates nothing).
 */
public final class SampledAttribute extends AttributeNode {
    private final Supplier<Object> reader;
    /** The last sampled value (guarded by this). Doubles compare by bits, as DoubleSensor's. */
    private Object last;

    SampledAttribute(ObjectNode owner, int id, String name, ValueType type, String unit, String description,
            Supplier<Object> reader) {
        super(owner, id, name, type, unit, description, true);
        this.reader = reader;
    }

    /** Reads the value and generates an event if it changed and the gate is open. */
    public void sample() {
        Object v = reader.get();
        if (v == null) return;
        synchronized (this) {
            Object old = last;
            last = v;
            if (Objects.equals(old, v)) return;
            switch (type()) {
                case LONG: publish((Long) v, null); break;
                case DOUBLE: publish(Double.doubleToLongBits((Double) v), null); break;
                case BOOLEAN: publish((Boolean) v ? 1L : 0L, null); break;
                default: publish(0L, (String) v);
            }
        }
    }

    @Override
    Object currentValue() {
        return reader.get();
    }
}
