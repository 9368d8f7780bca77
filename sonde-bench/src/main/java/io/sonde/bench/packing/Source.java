package io.sonde.bench.packing;

import io.sonde.api.EventField;
import io.sonde.api.EventType;
import io.sonde.api.EventWriter;
import io.sonde.api.Monitor;
import java.util.ArrayList;
import java.util.List;

/**
 * An event source of the study: a thread that emits custom events (the API's {@link EventType},
 * records of exactly the stated size: 13 bytes of header, then long fields and a few boolean
 * fields) as fast as the pipeline takes them ({@code policy=block-forever}: a full ring makes it
 * wait, never drop), or in bursts. A record holds at most 255 fields (2,053 bytes), so a
 * 10,000-byte event is sent as 5 records of 2,000 bytes, one after the other.
 */
final class Source {
    /** The largest record size used; larger events are split into records of this size. */
    static final int CHUNK_BYTES = 2000;

    /** What the source does. */
    enum Kind { CONTINUOUS, CHANGING, BURSTY }

    final String name;
    final Kind kind;
    final int eventBytes;
    /** Bursty: events per burst and the pause after each. */
    final int burst;
    final long pauseMillis;
    /** Changing: how long each of the two sizes lasts. */
    final long phaseMillis;

    private Source(String name, Kind kind, int eventBytes, int burst, long pauseMillis, long phaseMillis) {
        this.name = name;
        this.kind = kind;
        this.eventBytes = eventBytes;
        this.burst = burst;
        this.pauseMillis = pauseMillis;
        this.phaseMillis = phaseMillis;
    }

    /** Continuous events of {@code bytes} bytes. */
    static Source continuous(int bytes) {
        return new Source(bytes + " B", Kind.CONTINUOUS, bytes, 0, 0, 0);
    }

    /** Continuous events alternating between 100 and 2,000 bytes every {@code phaseMillis}. */
    static Source changing(long phaseMillis) {
        return new Source("100/2000 B changing", Kind.CHANGING, 0, 0, 0, phaseMillis);
    }

    /** Bursts of {@code burst} events of {@code bytes} bytes, then a pause. */
    static Source bursty(int bytes, int burst, long pauseMillis) {
        return new Source(bytes + " B bursty", Kind.BURSTY, bytes, burst, pauseMillis, 0);
    }

    /** Records one event of this source takes (the changing source: 1). */
    int recordsPerEvent() {
        return kind == Kind.CHANGING ? 1 : Math.max(1, eventBytes / CHUNK_BYTES);
    }

    /**
     * The measured time of a run asked to measure {@code seconds}: for the changing source, rounded
     * up to whole periods (both phases), so every window holds as much time of each record size
     * whatever its start. Otherwise a window of 1.5 s holds 1 s of one size and 0.5 s of the other
     * depending on where it starts, and runs with different warm-ups are not comparable: 100-byte
     * events come about 10 x faster than 2,000-byte ones, and a window starting with a 100-byte
     * phase counted almost twice the events of one starting half-way through it (the 181 % of
     * {@code adaptive} with {@code --adaptive-warm 20} in an earlier study).
     */
    double measuredSeconds(double seconds) {
        if (kind != Kind.CHANGING) return seconds;
        double period = 2 * phaseMillis / 1000.0;
        return Math.ceil(seconds / period - 1e-9) * period;
    }

    /** The sizes of the records this source emits, in bytes. */
    int[] recordBytes() {
        return kind == Kind.CHANGING ? new int[] {100, CHUNK_BYTES} : new int[] {Math.min(eventBytes, CHUNK_BYTES)};
    }

    String describe() {
        return switch (kind) {
            case CONTINUOUS -> "continuous " + eventBytes + "-byte events" + (recordsPerEvent() > 1
                    ? " (" + recordsPerEvent() + " records of " + CHUNK_BYTES + " bytes each)" : "");
            case CHANGING -> "continuous events of 100 bytes, then 2,000 bytes, switching every " + phaseMillis + " ms";
            case BURSTY -> "bursts of " + burst + " " + eventBytes + "-byte events, then " + pauseMillis + " ms pause";
        };
    }

    /** An event type whose records are exactly {@code bytes} long (13 .. 2053), and how to fill it. */
    record Shape(EventType type, int longs, int booleans) {
        static Shape of(Monitor m, int bytes) {
            int payload = bytes - 13;
            int longs = payload / 8;
            int booleans = payload % 8;
            List<EventField> fields = new ArrayList<>();
            for (int i = 0; i < longs; i++) fields.add(EventField.longField("l" + i));
            for (int i = 0; i < booleans; i++) fields.add(EventField.booleanField("b" + i));
            return new Shape(m.eventType("packing.study." + bytes, fields.toArray(new EventField[0])), longs, booleans);
        }

        /** One record; the first long is the sequence number. */
        void emit(long seq) {
            EventWriter w = type.begin();
            w.putLong(seq);
            for (int i = 1; i < longs; i++) w.putLong(i);
            for (int i = 0; i < booleans; i++) w.putBoolean(false);
            w.end();
        }
    }

    /** The producing thread; {@link Producer#stopAndJoin()} ends it. */
    Producer start(Monitor m) {
        Producer p = new Producer(m);
        p.start();
        return p;
    }

    final class Producer extends Thread {
        private final Shape small;
        private final Shape large;
        private volatile boolean running = true;
        /** Events emitted (a split event counts once, after its last record). */
        volatile long emitted;

        Producer(Monitor m) {
            super("packing-source");
            setDaemon(true);
            int[] sizes = recordBytes();
            small = Shape.of(m, sizes[0]);
            large = sizes.length > 1 ? Shape.of(m, sizes[1]) : small;
        }

        void stopAndJoin() throws InterruptedException {
            running = false;
            join(30_000);
        }

        @Override
        public void run() {
            long n = 0;
            long phaseStart = System.nanoTime();
            Shape shape = small;
            int records = recordsPerEvent();
            while (running) {
                if (kind == Kind.CHANGING && System.nanoTime() - phaseStart >= phaseMillis * 1_000_000L) {
                    shape = shape == small ? large : small;
                    phaseStart = System.nanoTime();
                }
                int count = kind == Kind.BURSTY ? burst : 64;
                for (int e = 0; e < count && running; e++) {
                    for (int r = 0; r < records; r++) shape.emit(n);
                    n++;
                }
                emitted = n;
                if (kind == Kind.BURSTY && running) {
                    try {
                        Thread.sleep(pauseMillis);
                    } catch (InterruptedException ie) {
                        return;
                    }
                }
            }
        }
    }
}
