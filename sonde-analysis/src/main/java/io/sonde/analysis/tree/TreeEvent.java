package io.sonde.analysis.tree;

/**
 * A custom event recorded during an execution of a kept tree (between its ENTER and EXIT on its
 * thread, with no callee running), at its place in the tree.
 *
 * @param type the event type's name
 * @param wallNanos when it was recorded, wall-clock ns since the epoch
 * @param fields its field values as {@code name=value} pairs separated by spaces
 */
public record TreeEvent(String type, long wallNanos, String fields) {}
