package io.sonde.lab.sweep;

/**
 * One measured point of a sweep: the load and what the clients and the server's JVM saw.
 *
 * @param clients closed clients
 * @param requests measured requests
 * @param meanMs mean response time (client send to reply received)
 * @param p50Ms median response time
 * @param p90Ms 90th percentile
 * @param p99Ms 99th percentile
 * @param throughputPerSecond measured requests per second
 * @param serverCpuMsPerRequest the server JVM's CPU time (user + system) per request, NaN if unknown
 * @param serverCpuUtilization the server JVM's CPU time over wall time and processors, NaN if unknown
 * @param clientCpuMsPerRequest the load generator's CPU time per request (it shares the processors)
 */
public record SweepPoint(int clients, int requests, double meanMs, double p50Ms, double p90Ms, double p99Ms,
        double throughputPerSecond, double serverCpuMsPerRequest, double serverCpuUtilization, double clientCpuMsPerRequest) {}
