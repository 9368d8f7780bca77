package io.sonde.core.live.mib;

import io.sonde.api.live.DoubleSensor;
import io.sonde.api.live.ValueType;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.DoubleSupplier;

/** A double sensor, stored as its raw bits (so change means "different bits"); see {@link LongSensorNode}. */
public final class DoubleSensorNode extends AttributeNode implements DoubleSensor {
    private static final VarHandle BITS = Source.handle(MethodHandles.lookup(), "bits", long.class);

    @SuppressWarnings("unused") // through BITS
    private long bits;
    private final DoubleSupplier sampler;

    DoubleSensorNode(ObjectNode owner, int id, String name, String unit, String description, DoubleSupplier sampler) {
        super(owner, id, name, ValueType.DOUBLE, unit, description, true);
        this.sampler = sampler;
    }

    @Override
    public void set(double v) {
        long b = Double.doubleToLongBits(v); // canonical NaN: NaN equals NaN
        if (gate() == 0) {
            BITS.setOpaque(this, b);
            return;
        }
        setActive(b);
    }

    private synchronized void setActive(long b) {
        long old = (long) BITS.getOpaque(this);
        BITS.setOpaque(this, b);
        if (old != b) publish(b, null);
    }

    @Override
    public double get() {
        return Double.longBitsToDouble((long) BITS.getOpaque(this));
    }

    /** Stores the sampler's value now. */
    public void sample() {
        set(sampler.getAsDouble());
    }

    @Override
    Object currentValue() {
        return sampler != null ? sampler.getAsDouble() : get();
    }
}
