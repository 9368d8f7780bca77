package io.sonde.bench.mooms;

/** The MBean each request of the JMX version registers and unregisters (public: JMX requires it). */
public final class Child implements ChildMBean {
    private final Workload.Foo foo;

    Child(Workload.Foo foo) {
        this.foo = foo;
    }

    @Override
    public long getItem1() {
        return foo.item1;
    }
}
