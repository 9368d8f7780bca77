/**
 * Live per-operation aggregates of the records the collector ingests, for the dashboard's live
 * operations view ({@code sonde collector --http PORT}): calls, errors and latency percentiles per
 * agent, operation and second over a fixed ring of recent seconds
 * ({@link io.sonde.collector.operations.OperationWindow}), fed by the queued
 * {@link io.sonde.collector.operations.LiveOperationsHandler}; see docs/dashboard.md.
 */
package io.sonde.collector.operations;
