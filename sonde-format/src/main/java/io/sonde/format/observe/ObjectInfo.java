package io.sonde.format.observe;

/** A monitored object as listed by LIST: id, path, type name. */
public record ObjectInfo(int id, String path, String type) {}
