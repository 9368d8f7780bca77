package io.sonde.analysis.export.otlp;

import com.google.protobuf.ByteString;
import java.util.UUID;

/**
 * Stable OTLP ids derived from what the log names: the same log exported twice gives the same
 * trace and span ids, so a receiver can deduplicate a repeated export. A trace id is the agent's
 * key (8 bytes mixed from its UUID) followed by the request's root trace id (8 bytes); a span id
 * mixes the agent key, the piece's trace id and the execution's order index within the piece.
 * Neither is ever all zero (OTLP treats zero as "no id").
 */
final class OtlpIds {
    private OtlpIds() {}

    /** The 8-byte key of an agent, mixed from both halves of its UUID. */
    static long agentKey(UUID agent) {
        return mix(agent.getMostSignificantBits() ^ Long.rotateLeft(agent.getLeastSignificantBits(), 29));
    }

    /**
     * The piece key of an execution outside any TRACE_START (trace id 0): each such root on a
     * thread is its own request, told apart by the thread and a per-thread sequence number.
     */
    static long anonymousPieceKey(long threadId, long sequence) {
        // the top bit set and mixed: kept apart from the agent's own (small, counted) trace ids
        return mix(threadId * 0x9E3779B97F4A7C15L + sequence) | Long.MIN_VALUE;
    }

    static ByteString traceId(long agentKey, long rootKey) {
        long low = rootKey != 0 ? rootKey : 1;
        return ByteString.copyFrom(bytes(agentKey, low));
    }

    static long spanId(long agentKey, long pieceKey, int orderIndex) {
        long id = mix(mix(agentKey ^ pieceKey) + orderIndex);
        return id != 0 ? id : 1;
    }

    static ByteString spanIdBytes(long spanId) {
        byte[] b = new byte[8];
        put(b, 0, spanId);
        return ByteString.copyFrom(b);
    }

    private static byte[] bytes(long high, long low) {
        byte[] b = new byte[16];
        put(b, 0, high);
        put(b, 8, low);
        return b;
    }

    private static void put(byte[] b, int at, long v) {
        for (int i = 7; i >= 0; i--) {
            b[at + i] = (byte) v;
            v >>>= 8;
        }
    }

    /** SplitMix64's finaliser: a bijection, so distinct inputs stay distinct. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
