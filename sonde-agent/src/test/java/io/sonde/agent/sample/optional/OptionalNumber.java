package io.sonde.agent.sample.optional;

/**
 * An optional library's class with a super class of the JDK: {@link
 * io.sonde.agent.sample.UnlinkableApp}'s {@code Unlinkable} returns it as a {@link Number}, so the
 * verifier must load it to link that class; {@code RefusedRetransformIT} runs without it.
 */
public final class OptionalNumber extends Number {

    @Override
    public int intValue() {
        return 1;
    }

    @Override
    public long longValue() {
        return 1;
    }

    @Override
    public float floatValue() {
        return 1;
    }

    @Override
    public double doubleValue() {
        return 1;
    }
}
