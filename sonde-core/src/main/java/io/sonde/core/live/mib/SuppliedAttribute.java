package io.sonde.core.live.mib;

import io.sonde.api.live.ValueType;
import java.util.function.Supplier;

/** A read-only attribute: its supplier is called on pull; never an event, never gated. */
final class SuppliedAttribute extends AttributeNode {
    private final Supplier<Object> supplier;

    SuppliedAttribute(ObjectNode owner, int id, String name, ValueType type, String unit, String description,
            Supplier<Object> supplier) {
        super(owner, id, name, type, unit, description, false);
        this.supplier = supplier;
    }

    @Override
    Object currentValue() {
        return supplier.get();
    }
}
