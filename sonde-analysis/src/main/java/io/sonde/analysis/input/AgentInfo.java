package io.sonde.analysis.input;

import java.util.UUID;

/**
 * One monitored process as seen in the input.
 *
 * @param index the reader's number for it (0, 1, 2... in order of appearance)
 * @param id the agent UUID from the frame headers
 * @param host host name from the frame headers
 * @param pid process id from the frame headers
 */
public record AgentInfo(int index, UUID id, String host, long pid) {}
