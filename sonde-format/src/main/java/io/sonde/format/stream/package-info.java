/**
 * Acknowledged delivery of a recording stream over TCP (format 2.2, docs/format.md section 8):
 * the HELLO an agent opens with, the collector's ACCEPT or REFUSE and its ACKs, and the token file
 * both sides read.
 */
package io.sonde.format.stream;
