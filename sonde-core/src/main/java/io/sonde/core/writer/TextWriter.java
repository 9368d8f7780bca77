package io.sonde.core.writer;

import io.sonde.format.Format;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes one human-readable line per frame and per record, for debugging (not a stable format).
 * Names from the definitions are printed next to ids. Target: {@code stdout}, {@code stderr} or a
 * file path ({@code text.out}).
 */
public final class TextWriter implements Writer {
    private final String target;
    private PrintWriter out;
    private WriterContext context;
    private final Map<Integer, String> probes = new HashMap<>();
    private final Map<Integer, String> strings = new HashMap<>();
    private final Map<Integer, byte[]> eventTypes = new HashMap<>();
    private final Map<Integer, String> eventNames = new HashMap<>();
    private final StringBuilder line = new StringBuilder(256);

    public TextWriter(String target) {
        this.target = target;
    }

    @Override
    public void open(WriterContext context) throws IOException {
        this.context = context;
        OutputStream os;
        if (target.equals("stdout")) os = new NonClosing(System.out);
        else if (target.equals("stderr")) os = new NonClosing(System.err);
        else os = new FileOutputStream(target);
        out = new PrintWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8), false);
        out.println("# sonde text stream, agent " + context.agentId());
    }

    @Override
    public void write(ByteBuffer frame) {
        context.seal(frame);
        ByteBuffer f = frame.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int length = f.getInt(Format.FRAME_OFF_LENGTH);
        int type = f.get(Format.FRAME_OFF_TYPE);
        int h = f.getShort(Format.FRAME_OFF_HEADER_LENGTH) & 0xFFFF;
        out.println("frame seq=" + f.getLong(Format.FRAME_OFF_SEQUENCE) + " type="
                + (type == Format.FRAME_DATA ? "DATA" : type == Format.FRAME_TRAILER ? "TRAILER" : "SEGMENT_END")
                + " bytes=" + length + " mono=" + f.getLong(Format.FRAME_OFF_MONO_NANOS));
        f.position(h).limit(length);
        if (type == Format.FRAME_TRAILER) {
            out.println("  trailer produced=" + f.getLong() + " written=" + f.getLong());
            int n = f.getInt();
            for (int k = 0; k < n; k++) out.println("  dropped reason=" + f.get() + " count=" + f.getLong());
            return;
        }
        while (f.remaining() >= Format.BLOCK_HEADER_BYTES) {
            long thread = f.getLong();
            int len = f.getInt();
            int end = f.position() + len;
            out.println(" block thread=" + thread + " bytes=" + len);
            while (f.position() < end) {
                record(f);
            }
        }
    }

    private void record(ByteBuffer f) {
        line.setLength(0);
        byte t = f.get();
        line.append("  ");
        switch (t) {
            case Format.ENTER:
            case Format.EXIT:
            case Format.EXIT_EXCEPTION:
            case Format.ENTER_CPU:
            case Format.EXIT_CPU:
            case Format.EXIT_EXCEPTION_CPU: {
                String[] names = {"", "ENTER", "EXIT", "EXIT_EXCEPTION", "ENTER_CPU", "EXIT_CPU", "EXIT_EXCEPTION_CPU"};
                int id = f.getInt();
                line.append(names[t]).append(" probe=").append(id).append(' ').append(probes.get(id));
                line.append(" t=").append(f.getLong());
                if (t >= Format.ENTER_CPU) line.append(" cpu=").append(f.getLong());
                if (t == Format.EXIT_EXCEPTION || t == Format.EXIT_EXCEPTION_CPU) {
                    line.append(" exception=").append(strings.get(f.getInt()));
                }
                break;
            }
            case Format.EVENT: {
                int id = f.getInt();
                line.append("EVENT type=").append(id).append(' ').append(eventNames.get(id)).append(" t=").append(f.getLong());
                for (byte ft : eventTypes.getOrDefault(id, new byte[0])) {
                    line.append(' ');
                    switch (ft) {
                        case Format.FIELD_BOOLEAN: line.append(f.get() != 0); break;
                        case Format.FIELD_INT: line.append(f.getInt()); break;
                        case Format.FIELD_LONG: line.append(f.getLong()); break;
                        case Format.FIELD_DOUBLE: line.append(f.getDouble()); break;
                        default: line.append('"').append(strings.get(f.getInt())).append('"');
                    }
                }
                break;
            }
            case Format.TRACE_START:
                line.append("TRACE_START trace=").append(f.getLong()).append(" parent=").append(f.getLong())
                        .append(" parentOrder=").append(f.getInt());
                break;
            case Format.GAP:
                line.append("GAP dropped=").append(f.getInt() & 0xFFFFFFFFL);
                break;
            case Format.PROBE_DEF: {
                int id = f.getInt();
                String name = str(f);
                String sig = str(f);
                probes.put(id, name + sig);
                line.append("PROBE_DEF ").append(id).append(' ').append(name).append(' ').append(sig);
                break;
            }
            case Format.STRING_DEF: {
                int id = f.getInt();
                String v = str(f);
                strings.put(id, v);
                line.append("STRING_DEF ").append(id).append(" \"").append(v).append('"');
                break;
            }
            case Format.THREAD_DEF:
                line.append("THREAD_DEF ").append(f.getLong()).append(' ').append(str(f));
                break;
            case Format.EVENT_DEF: {
                int id = f.getInt();
                String name = str(f);
                int k = f.get() & 0xFF;
                byte[] types = new byte[k];
                line.append("EVENT_DEF ").append(id).append(' ').append(name);
                for (int j = 0; j < k; j++) {
                    types[j] = f.get();
                    line.append(' ').append(str(f)).append(':').append(types[j]);
                }
                eventTypes.put(id, types);
                eventNames.put(id, name);
                break;
            }
            default:
                line.append("UNKNOWN type ").append(t);
                f.position(f.limit());
        }
        out.println(line);
    }

    private static String str(ByteBuffer f) {
        int n = f.getShort() & 0xFFFF;
        byte[] b = new byte[n];
        f.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    @Override
    public void flush() {
        out.flush();
    }

    @Override
    public void close() {
        if (out != null) {
            out.flush();
            out.close();
        }
    }

    /** Keeps System.out/err open when the writer closes. */
    private static final class NonClosing extends java.io.FilterOutputStream {
        NonClosing(OutputStream o) {
            super(o);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
