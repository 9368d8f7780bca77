/**
 * Frame compression (format 2.4, docs/format.md section 4.4): the LZ4 block codec ({@link
 * io.sonde.format.compress.Lz4Block}) and the conversion of a DATA frame to a COMPRESSED frame and
 * back ({@link io.sonde.format.compress.FrameCompressor}, {@link
 * io.sonde.format.compress.FrameExpander}). No dependencies; allocation-free once the buffers have
 * grown to the largest frame.
 */
package io.sonde.format.compress;
