package io.sonde.format.compress;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The LZ4 block format (the format of {@code LZ4_compress_default} / {@code
 * LZ4_decompress_safe}, without the LZ4 frame format around it): a compressor and a bounds-checked
 * decompressor. Output of {@link #compress} decodes with any LZ4 block decoder, and {@link
 * #decompress} decodes any valid LZ4 block (the tests cross-check both against lz4-java).
 *
 * <p>Written here rather than taken from a library because the writer thread must stay
 * allocation-free: lz4-java's pure-Java compressor allocates its hash table on every call, and its
 * faster variants load JNI code or use {@code sun.misc.Unsafe}, which an agent inside someone
 * else's JVM must not. One instance holds one reusable hash table; it is not thread-safe.
 *
 * <p>Block format: a sequence of (token, literal length extension, literals, u16 LE match offset,
 * match length extension). The token's high nibble is the literal count, its low nibble the match
 * length minus 4; a nibble of 15 continues in bytes of 255 ending with a byte below 255. The last
 * sequence has literals only. Encoders keep the last 5 bytes literal and start no match in the last
 * 12 bytes, which lets fast decoders copy in wide steps; this decoder does not rely on it.
 */
public final class Lz4Block {
    private static final int MIN_MATCH = 4;
    /** The last bytes of a block are always literals. */
    private static final int LAST_LITERALS = 5;
    /** No match starts within this many bytes of the end. */
    private static final int MATCH_FIND_LIMIT = 12;
    private static final int MAX_OFFSET = 0xFFFF;
    private static final int HASH_LOG = 14;
    /** Knuth's multiplicative hash constant (2^32 / golden ratio). */
    private static final int HASH_MULTIPLIER = -1640531535;
    /** Little-endian int and long views of byte arrays (bounds-checked, no Unsafe). */
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /**
     * Positions seen, by hash of their 4 bytes. An entry e is valid in the current call only if
     * e > base: instead of clearing the table per call, base moves past every value stored before,
     * and the table is cleared only when base would overflow (after 2 GiB of input).
     */
    private final int[] table = new int[1 << HASH_LOG];
    private int base;

    /** Largest compressed size of {@code n} input bytes (incompressible input grows slightly). */
    public static int maxCompressedLength(int n) {
        return n + n / 255 + 16;
    }

    /**
     * Compresses {@code src[srcOff, srcOff + srcLen)} into {@code dst} from {@code dstOff}, which
     * must have {@link #maxCompressedLength}(srcLen) bytes of room. Returns the compressed length.
     */
    public int compress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff) {
        if (srcLen < 0 || srcOff < 0 || srcOff + srcLen > src.length) {
            throw new IndexOutOfBoundsException("source range " + srcOff + "+" + srcLen + " of " + src.length);
        }
        if (dstOff < 0 || dst.length - dstOff < maxCompressedLength(srcLen)) {
            throw new IndexOutOfBoundsException("destination needs " + maxCompressedLength(srcLen) + " bytes from " + dstOff
                    + ", has " + (dst.length - dstOff));
        }
        if (base > Integer.MAX_VALUE - srcLen - 1) {
            Arrays.fill(table, 0);
            base = 0;
        }
        // table value of absolute position p in this call: p + shift (always > base)
        int shift = base + 1 - srcOff;
        int end = srcOff + srcLen;
        int anchor = srcOff;
        int d = dstOff;
        if (srcLen > MATCH_FIND_LIMIT) {
            int lastMatchStart = end - MATCH_FIND_LIMIT;
            int matchEndLimit = end - LAST_LITERALS;
            int p = srcOff;
            while (p <= lastMatchStart) {
                int word = i32(src, p);
                int h = hash(word);
                int candidate = table[h] - shift;
                table[h] = p + shift;
                if (candidate >= srcOff && p - candidate <= MAX_OFFSET && i32(src, candidate) == word) {
                    int m = candidate;
                    while (p > anchor && m > srcOff && src[p - 1] == src[m - 1]) {
                        p--;
                        m--;
                    }
                    int length = MIN_MATCH + commonLength(src, m + MIN_MATCH, p + MIN_MATCH, matchEndLimit);
                    d = sequence(dst, d, src, anchor, p - anchor, p - m, length);
                    p += length;
                    anchor = p;
                    if (p - 2 <= lastMatchStart) {
                        // remember a position inside the match: the next repeat is likely near it
                        table[hash(i32(src, p - 2))] = p - 2 + shift;
                    }
                    continue;
                }
                // skip faster through data that does not compress
                p += 1 + ((p - anchor) >>> 6);
            }
        }
        d = lastLiterals(dst, d, src, anchor, end - anchor);
        base += srcLen + 1;
        return d - dstOff;
    }

    /**
     * Decompresses the block {@code src[srcOff, srcOff + srcLen)} into {@code dst[dstOff, dstOff +
     * dstCapacity)}. Returns the decompressed length. Every length and offset is checked: a corrupt
     * block throws {@link CorruptBlockException} and never reads or writes outside the ranges given.
     */
    public static int decompress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstCapacity)
            throws CorruptBlockException {
        int s = srcOff;
        int sEnd = srcOff + srcLen;
        int d = dstOff;
        int dEnd = dstOff + dstCapacity;
        while (true) {
            if (s >= sEnd) {
                throw new CorruptBlockException(s - srcOff, "block ends before its last sequence");
            }
            int token = src[s++] & 0xFF;
            int literals = token >>> 4;
            if (literals == 15) {
                int more;
                do {
                    if (s >= sEnd) {
                        throw new CorruptBlockException(s - srcOff, "block ends inside a literal length");
                    }
                    more = src[s++] & 0xFF;
                    literals += more;
                    if (literals > dEnd - d) {
                        throw new CorruptBlockException(s - srcOff, "literal length runs past the output (" + (dEnd - dstOff) + " bytes)");
                    }
                } while (more == 255);
            }
            if (literals > sEnd - s) {
                throw new CorruptBlockException(s - srcOff, literals + " literals run past the end of the block");
            }
            if (literals > dEnd - d) {
                throw new CorruptBlockException(s - srcOff, "literals run past the output (" + (dEnd - dstOff) + " bytes)");
            }
            System.arraycopy(src, s, dst, d, literals);
            s += literals;
            d += literals;
            if (s == sEnd) {
                return d - dstOff; // the last sequence: literals only
            }
            if (sEnd - s < 2) {
                throw new CorruptBlockException(s - srcOff, "block ends inside a match offset");
            }
            int offset = (src[s] & 0xFF) | (src[s + 1] & 0xFF) << 8;
            if (offset == 0 || offset > d - dstOff) {
                throw new CorruptBlockException(s - srcOff, "match offset " + offset + " outside the " + (d - dstOff) + " bytes decoded so far");
            }
            s += 2;
            int length = token & 0x0F;
            if (length == 15) {
                int more;
                do {
                    if (s >= sEnd) {
                        throw new CorruptBlockException(s - srcOff, "block ends inside a match length");
                    }
                    more = src[s++] & 0xFF;
                    length += more;
                    if (length > dEnd - d) {
                        throw new CorruptBlockException(s - srcOff, "match length runs past the output (" + (dEnd - dstOff) + " bytes)");
                    }
                } while (more == 255);
            }
            length += MIN_MATCH;
            if (length > dEnd - d) {
                throw new CorruptBlockException(s - srcOff, "match runs past the output (" + (dEnd - dstOff) + " bytes)");
            }
            int from = d - offset;
            if (offset >= length) {
                System.arraycopy(dst, from, dst, d, length);
            } else {
                // overlapping copy: repeats the last `offset` bytes (run-length style), byte by byte
                for (int i = 0; i < length; i++) {
                    dst[d + i] = dst[from + i];
                }
            }
            d += length;
        }
    }

    private static int sequence(byte[] dst, int d, byte[] src, int literalStart, int literals, int offset, int matchLength) {
        int token = d++;
        int lengthCode = matchLength - MIN_MATCH;
        dst[token] = (byte) (Math.min(literals, 15) << 4 | Math.min(lengthCode, 15));
        if (literals >= 15) {
            d = lengthExtension(dst, d, literals - 15);
        }
        System.arraycopy(src, literalStart, dst, d, literals);
        d += literals;
        dst[d++] = (byte) offset;
        dst[d++] = (byte) (offset >>> 8);
        if (lengthCode >= 15) {
            d = lengthExtension(dst, d, lengthCode - 15);
        }
        return d;
    }

    private static int lastLiterals(byte[] dst, int d, byte[] src, int literalStart, int literals) {
        dst[d++] = (byte) (Math.min(literals, 15) << 4);
        if (literals >= 15) {
            d = lengthExtension(dst, d, literals - 15);
        }
        System.arraycopy(src, literalStart, dst, d, literals);
        return d + literals;
    }

    private static int lengthExtension(byte[] dst, int d, int n) {
        while (n >= 255) {
            dst[d++] = (byte) 255;
            n -= 255;
        }
        dst[d++] = (byte) n;
        return d;
    }

    /** How many bytes from {@code a} and {@code b} (a < b) are equal, {@code b} not going past {@code limit}; 8 at a time. */
    private static int commonLength(byte[] src, int a, int b, int limit) {
        int start = b;
        while (b + 8 <= limit) {
            long diff = (long) LONG.get(src, a) ^ (long) LONG.get(src, b);
            if (diff != 0) {
                return b - start + (Long.numberOfTrailingZeros(diff) >>> 3);
            }
            a += 8;
            b += 8;
        }
        while (b < limit && src[a] == src[b]) {
            a++;
            b++;
        }
        return b - start;
    }

    private static int hash(int word) {
        return (word * HASH_MULTIPLIER) >>> (32 - HASH_LOG);
    }

    private static int i32(byte[] b, int i) {
        return (int) INT.get(b, i);
    }
}
