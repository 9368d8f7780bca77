package io.sonde.bench.mooms;

/** Management interface of the JMX version's child object (public: JMX requires it). */
public interface ChildMBean {
    /** The first item of the business object. */
    long getItem1();
}
