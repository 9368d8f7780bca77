package io.sonde.bench.overhead.kieker;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Counts the execution records of the benchmarked method in Kieker 2.x binary output: the files
 * of its binary file writer ({@code *.bin} plus the {@code kieker.map} string table) and the byte
 * stream of its single-socket TCP writer (string registrations inline).
 *
 * <p>Kieker's binary layout, as observed on Kieker 2.0.2 output: a string registration is
 * {@code int -1, int id, int length, length bytes UTF-8}; a record is {@code int classNameId,
 * long loggingTimestamp}, then the record's fields, strings as ids. Only the two record types the
 * benchmark produces are known here; any other type stops the count with an error naming the
 * offset, since its length is unknown.
 */
public final class KiekerRecordCounter {

    /** Class name of Kieker's execution record. */
    public static final String OPERATION_EXECUTION = "kieker.common.record.controlflow.OperationExecutionRecord";
    /** Class name of the metadata record Kieker writes first. */
    public static final String METADATA = "kieker.common.record.misc.KiekerMetadataRecord";

    // operationSignature, sessionId (string ids), traceId, tin, tout (longs), hostname (id), eoi, ess
    private static final int OPERATION_EXECUTION_BODY = 4 + 4 + 8 + 8 + 8 + 4 + 4 + 4;
    // version, controllerName, hostname (ids), experimentId, debugMode (byte), timeOffset, timeUnit (id), numberOfRecords
    private static final int METADATA_BODY = 4 + 4 + 4 + 4 + 1 + 8 + 4 + 8;

    private final String signatureMarker;
    private final Map<Integer, String> strings = new HashMap<>();
    private long matching;
    private long otherExecutions;
    private long bytes;

    /**
     * A counter of execution records whose operation signature contains {@code signatureMarker}
     * (e.g. {@code ".MonitoredClass.monitoredMethod("}); other executions (constructors) are
     * counted apart.
     */
    public KiekerRecordCounter(String signatureMarker) {
        this.signatureMarker = signatureMarker;
    }

    /** Adds a string table entry, as read from {@code kieker.map} ({@code $ID=VALUE}). */
    public void registerString(int id, String value) {
        strings.put(id, value);
    }

    /** Execution records of the benchmarked method counted so far. */
    public long matching() {
        return matching;
    }

    /** Execution records of other methods (e.g. constructors Kieker instruments too). */
    public long otherExecutions() {
        return otherExecutions;
    }

    /** Bytes consumed so far. */
    public long bytes() {
        return bytes;
    }

    /**
     * Reads records from {@code in} until its end.
     *
     * @param source names the input in error messages (file name or peer)
     * @throws IOException naming the source and the byte offset of a truncated or unknown record
     */
    public void consume(DataInputStream in, String source) throws IOException {
        long start = 0;
        while (true) {
            start = bytes;
            int first;
            try {
                first = in.readInt();
            } catch (EOFException end) {
                return; // clean end between records
            }
            try {
                bytes += 4;
                if (first == -1) {
                    int id = in.readInt();
                    int length = in.readInt();
                    if (length < 0 || length > 1 << 20) {
                        throw new IOException(source + " at byte " + start + ": string registration of length " + length);
                    }
                    byte[] text = new byte[length];
                    in.readFully(text);
                    bytes += 8 + length;
                    strings.put(id, new String(text, StandardCharsets.UTF_8));
                    continue;
                }
                String type = strings.get(first);
                in.readLong(); // logging timestamp
                bytes += 8;
                if (OPERATION_EXECUTION.equals(type)) {
                    int signature = in.readInt();
                    skip(in, OPERATION_EXECUTION_BODY - 4);
                    bytes += OPERATION_EXECUTION_BODY;
                    String name = strings.get(signature);
                    if (name != null && name.contains(signatureMarker)) {
                        matching++;
                    } else {
                        otherExecutions++;
                    }
                } else if (METADATA.equals(type)) {
                    skip(in, METADATA_BODY);
                    bytes += METADATA_BODY;
                } else {
                    throw new IOException(source + " at byte " + start + ": record type "
                            + (type == null ? "id " + first + " (not registered)" : type) + " is not one this counter knows");
                }
            } catch (EOFException truncated) {
                throw new IOException(source + " at byte " + start + ": truncated record at the end");
            }
        }
    }

    private static void skip(DataInputStream in, int n) throws IOException {
        int left = n;
        while (left > 0) {
            int skipped = in.skipBytes(left);
            if (skipped <= 0) {
                in.readByte(); // throws EOFException at the end
                skipped = 1;
            }
            left -= skipped;
        }
    }
}
