package io.sonde.bench.overhead.otel;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Counts spans in an OTLP {@code ExportTraceServiceRequest} (protobuf wire format), without a
 * protobuf library: it walks {@code resource_spans (1) -> scope_spans (2) -> spans (2)} and
 * reads each span's {@code name (5)}.
 */
public final class OtlpSpanCounter {

    private OtlpSpanCounter() {}

    /**
     * Spans in {@code request} whose name contains {@code nameMarker} (all spans if it is empty).
     *
     * @throws IOException describing the byte offset of malformed protobuf
     */
    public static long count(byte[] request, String nameMarker) throws IOException {
        long spans = 0;
        Reader top = new Reader(request, 0, request.length);
        while (top.more()) {
            long key = top.varint();
            if (key == tag(1, 2)) {
                Reader resourceSpans = top.sub();
                while (resourceSpans.more()) {
                    long k2 = resourceSpans.varint();
                    if (k2 == tag(2, 2)) {
                        Reader scopeSpans = resourceSpans.sub();
                        while (scopeSpans.more()) {
                            long k3 = scopeSpans.varint();
                            if (k3 == tag(2, 2)) {
                                if (spanMatches(scopeSpans.sub(), nameMarker)) {
                                    spans++;
                                }
                            } else {
                                scopeSpans.skip(k3);
                            }
                        }
                    } else {
                        resourceSpans.skip(k2);
                    }
                }
            } else {
                top.skip(key);
            }
        }
        return spans;
    }

    private static boolean spanMatches(Reader span, String marker) throws IOException {
        if (marker.isEmpty()) {
            return true;
        }
        boolean matches = false;
        while (span.more()) {
            long key = span.varint();
            if (key == tag(5, 2)) {
                Reader name = span.sub();
                matches = new String(name.bytes, name.pos, name.end - name.pos, StandardCharsets.UTF_8).contains(marker);
            } else {
                span.skip(key);
            }
        }
        return matches;
    }

    private static long tag(int field, int wireType) {
        return ((long) field << 3) | wireType;
    }

    /** A bounded view of the buffer. */
    private static final class Reader {
        final byte[] bytes;
        int pos;
        final int end;

        Reader(byte[] bytes, int pos, int end) {
            this.bytes = bytes;
            this.pos = pos;
            this.end = end;
        }

        boolean more() {
            return pos < end;
        }

        long varint() throws IOException {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= end) {
                    throw new IOException("protobuf: truncated varint at byte " + pos);
                }
                byte b = bytes[pos++];
                value |= (long) (b & 0x7f) << shift;
                if (b >= 0) {
                    return value;
                }
            }
            throw new IOException("protobuf: varint longer than 10 bytes at byte " + pos);
        }

        Reader sub() throws IOException {
            long length = varint();
            if (length < 0 || length > end - pos) {
                throw new IOException("protobuf: length " + length + " at byte " + pos + " runs past the end");
            }
            Reader r = new Reader(bytes, pos, pos + (int) length);
            pos += (int) length;
            return r;
        }

        void skip(long key) throws IOException {
            int wire = (int) (key & 7);
            switch (wire) {
                case 0 -> varint();
                case 1 -> advance(8);
                case 2 -> sub();
                case 5 -> advance(4);
                default -> throw new IOException("protobuf: wire type " + wire + " at byte " + pos + " not supported");
            }
        }

        private void advance(int n) throws IOException {
            if (n > end - pos) {
                throw new IOException("protobuf: field at byte " + pos + " runs past the end");
            }
            pos += n;
        }
    }
}
