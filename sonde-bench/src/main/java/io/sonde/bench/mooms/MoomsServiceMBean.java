package io.sonde.bench.mooms;

/** Management interface of the JMX version of the MOOMS test server (public: JMX requires it). */
public interface MoomsServiceMBean {
    /** The attribute each request updates. */
    long getAttribute();
}
