package io.sonde.core.live.mib;

import io.sonde.api.live.LongSensor;
import io.sonde.api.live.ValueType;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.LongSupplier;

/**
 * A long sensor. Idle ({@code gate() == 0}) a set is one opaque flag load and one opaque store
 * (plain moves on x86; opaque keeps the 64-bit store atomic and visible to pull). Active, the
 * change is checked and published under the sensor's lock, so events of one sensor are generated
 * in the order its values were stored.
 */
public final class LongSensorNode extends AttributeNode implements LongSensor {
    private static final VarHandle VALUE = Source.handle(MethodHandles.lookup(), "value", long.class);

    @SuppressWarnings("unused") // through VALUE
    private long value;
    /** For a sampled sensor (autonomous probe): what pull reads and the sampler stores; else null. */
    private final LongSupplier sampler;

    LongSensorNode(ObjectNode owner, int id, String name, String unit, String description, LongSupplier sampler) {
        super(owner, id, name, ValueType.LONG, unit, description, true);
        this.sampler = sampler;
    }

    @Override
    public void set(long v) {
        if (gate() == 0) {
            VALUE.setOpaque(this, v);
            return;
        }
        setActive(v);
    }

    private synchronized void setActive(long v) {
        long old = (long) VALUE.getOpaque(this);
        VALUE.setOpaque(this, v);
        if (old != v) publish(v, null);
    }

    @Override
    public void add(long delta) {
        if (gate() == 0) {
            VALUE.getAndAdd(this, delta);
            return;
        }
        addActive(delta);
    }

    private synchronized void addActive(long delta) {
        long old = (long) VALUE.getAndAdd(this, delta);
        if (delta != 0) publish(old + delta, null);
    }

    @Override
    public long get() {
        return (long) VALUE.getOpaque(this);
    }

    /** Stores the sampler's value now (events if it changed and the gate is open). */
    public void sample() {
        set(sampler.getAsLong());
    }

    @Override
    Object currentValue() {
        return sampler != null ? sampler.getAsLong() : get();
    }
}
