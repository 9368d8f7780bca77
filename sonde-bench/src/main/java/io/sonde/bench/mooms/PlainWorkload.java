package io.sonde.bench.mooms;

/** The un-instrumented server: the attribute is a plain field, the child a plain object. */
final class PlainWorkload extends Workload {
    private long attribute;
    private Foo last;

    PlainWorkload(int work) {
        super(work);
    }

    @Override
    String name() {
        return "none";
    }

    @Override
    void update(long value) {
        attribute = value;
        Foo foo = new Foo(value);
        last = foo; // "added" and, with the next line, "removed": no tree, no event
        last = null;
    }

    long attribute() {
        return attribute;
    }
}
