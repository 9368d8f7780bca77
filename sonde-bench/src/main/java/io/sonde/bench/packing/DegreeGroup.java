package io.sonde.bench.packing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Static degrees that send identical frames for one source, reported as one row. {@code frame.bytes}
 * caps every frame, so every degree whose records cannot fit into one frame ({@code degree x record
 * size > frame.bytes}) sends full frames, the same frames whatever the degree: for 1,000-byte records
 * and 256 KiB frames, 512 and 1,024 both send 262 records per frame. Measuring them as separate rows
 * only adds chances for one of them to be the best by luck; pooled, their runs are one sample of
 * that frame size. A degree that fits is its own group (the frame header is not counted: a degree
 * that fits only without it stays apart, which can only split a group, never merge two).
 *
 * @param degrees ascending; the first one is run when the group is measured again
 * @param capped true if these degrees send full frames of every record size the source emits (so
 *     every larger degree too)
 */
record DegreeGroup(List<Integer> degrees, boolean capped) {
    DegreeGroup {
        if (degrees.isEmpty()) throw new IllegalArgumentException("a degree group needs at least one degree");
        degrees = List.copyOf(degrees);
    }

    /** {@code static:512} or, for several degrees, {@code static:512-1024}. */
    String label() {
        int first = degrees.get(0);
        int last = degrees.get(degrees.size() - 1);
        return first == last ? "static:" + first : "static:" + first + "-" + last;
    }

    /** The configuration that stands for the group: its smallest degree. */
    String representative() {
        return "static:" + degrees.get(0);
    }

    /** True if {@code packing} is one of this group's degrees ({@code static:N}). */
    boolean contains(String packing) {
        for (int d : degrees) {
            if (packing.equals("static:" + d)) return true;
        }
        return false;
    }

    /**
     * The degrees (ascending, distinct) split into groups of identical frames for {@code source}.
     * Two degrees send identical frames when, for each record size the source emits, both are capped
     * by {@code frameBytes} or both are the same number.
     */
    static List<DegreeGroup> of(Source source, List<Integer> degrees, int frameBytes) {
        List<DegreeGroup> groups = new ArrayList<>();
        List<Integer> current = new ArrayList<>();
        int[] currentKey = null;
        for (int d : degrees) {
            int[] key = framesKey(source.recordBytes(), d, frameBytes);
            if (currentKey != null && !Arrays.equals(key, currentKey)) {
                groups.add(new DegreeGroup(current, allCapped(currentKey)));
                current = new ArrayList<>();
            }
            current.add(d);
            currentKey = key;
        }
        if (currentKey != null) groups.add(new DegreeGroup(current, allCapped(currentKey)));
        return groups;
    }

    /** Per record size: the records a frame of this degree holds, or -1 for "as many as frame.bytes holds". */
    private static int[] framesKey(int[] recordBytes, int degree, int frameBytes) {
        int[] key = new int[recordBytes.length];
        for (int i = 0; i < recordBytes.length; i++) key[i] = (long) degree * recordBytes[i] > frameBytes ? -1 : degree;
        return key;
    }

    private static boolean allCapped(int[] key) {
        for (int k : key) {
            if (k != -1) return false;
        }
        return true;
    }
}
