/**
 * How the writer thread packs records into frames (issue 12, after "adaptive message packing"):
 * the packing degree (data records per frame), fixed or adapted to the measured throughput by
 * {@link io.sonde.core.pipeline.packing.HillClimbing} on paired measurements of two neighbouring degrees
 * ({@link io.sonde.core.pipeline.packing.PairedComparison}), and the bound on how long a record may wait
 * for its frame ({@link io.sonde.core.pipeline.packing.WaitBound}). Only the writer thread uses
 * these classes; nothing here runs on a probe thread. Uses nothing of Sonde but itself.
 */
package io.sonde.core.pipeline.packing;
