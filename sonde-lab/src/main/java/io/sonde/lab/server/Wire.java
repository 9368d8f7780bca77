package io.sonde.lab.server;

/**
 * The lab's request/reply protocol over TCP, big-endian. A request is {@value #REQUEST_BYTES}
 * bytes: the request id (long), the servant kind (int: {@link #KIND_CPU} or {@link #KIND_DELAY})
 * and the servant demand in nanoseconds (long). The client chooses the demand, as the thesis'
 * workload generator passed the work to do as the call's parameter (section 4.4). A reply is the
 * request id (long). A connection carries any number of requests; replies may come out of order
 * when a connection has several requests outstanding (open workloads, pool or thread-per-request).
 */
public final class Wire {
    /** Bytes of one request. */
    public static final int REQUEST_BYTES = 20;
    /** Bytes of one reply. */
    public static final int REPLY_BYTES = 8;
    /** Servant kind: spend the demand as thread CPU time. */
    public static final int KIND_CPU = 0;
    /** Servant kind: sleep for the demand. */
    public static final int KIND_DELAY = 1;

    private Wire() {}
}
