package io.sonde.format.read;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** One input of a stream: its name for messages, its segment index (or -1), and a way to open it. */
interface SegmentSource {
    String name();

    int index();

    InputStream open() throws IOException;

    /** A segment file. */
    static SegmentSource file(Path path, int index) {
        return new SegmentSource() {
            @Override
            public String name() {
                return path.toString();
            }

            @Override
            public int index() {
                return index;
            }

            @Override
            public InputStream open() throws IOException {
                return new BufferedInputStream(Files.newInputStream(path), 1 << 16);
            }
        };
    }

    /** An already open stream (e.g. a socket), which is not a numbered segment. */
    static SegmentSource stream(InputStream in, String name) {
        return new SegmentSource() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public int index() {
                return -1;
            }

            @Override
            public InputStream open() {
                return in;
            }
        };
    }
}
