package io.sonde.analysis.tree;

/**
 * A monitored operation (a probe), identified across agents by its probe name: the same method
 * monitored in two processes is one operation. {@link #index()} numbers operations densely from 0
 * so that aggregates can live in arrays.
 */
public final class Operation {
    private final int index;
    private final String name;
    private final String signature;

    Operation(int index, String name, String signature) {
        this.index = index;
        this.name = name;
        this.signature = signature;
    }

    /** Dense number of this operation, 0-based, in order of first definition. */
    public int index() {
        return index;
    }

    /** The probe name, e.g. {@code com.example.Shop#order}. */
    public String name() {
        return name;
    }

    /** The signature of the first probe definition seen with this name (may be empty). */
    public String signature() {
        return signature;
    }

    @Override
    public String toString() {
        return name;
    }
}
