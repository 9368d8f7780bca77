/**
 * The collector's {@code otlp} handler: live call trees from the frames each agent sends, turned
 * into OTLP spans by the analysis' span export and sent over OTLP/HTTP (docs/collector.md, "OTLP").
 */
package io.sonde.collector.otlp;
