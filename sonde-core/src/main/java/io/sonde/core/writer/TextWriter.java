package io.sonde.core.writer;

import io.sonde.format.Format;
import io.sonde.format.read.FormatException;
import io.sonde.format.read.FrameHeader;
import io.sonde.format.read.RecordCursor;
import io.sonde.format.read.RecordText;
import io.sonde.format.read.Trailer;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Writes one human-readable line per frame and per record, for debugging (not a stable format):
 * the frames are decoded by the format library's {@link RecordCursor} and printed in the text form
 * of {@code sonde dump} ({@link RecordText}), definitions included, names next to ids. Target:
 * {@code stdout}, {@code stderr} or a file path ({@code text.out}).
 */
public final class TextWriter implements Writer {
    private final String target;
    private PrintWriter out;
    private WriterContext context;
    /** Decodes each frame; its registry collects the definitions across frames. */
    private final RecordCursor records = new RecordCursor().includeDefinitions(true);
    /** A copy of the current frame (the cursor reads arrays; this is a debugging writer). */
    private byte[] bytes = new byte[0];
    /** Offset the frame would have in a file: frames follow a stream header. */
    private long offset = Format.STREAM_HEADER_BYTES;

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
        if (bytes.length < length) bytes = new byte[length];
        f.get(0, bytes, 0, length);
        try {
            records.startFrame(bytes, length, offset, target);
            FrameHeader h = records.frame();
            out.println(RecordText.frame(h, target));
            if (h.type() == Format.FRAME_TRAILER) out.println(RecordText.trailer(Trailer.decode(h, target)));
            while (records.next()) out.println(RecordText.record(records));
        } catch (FormatException e) {
            out.println("error: " + e.getMessage());
        }
        offset += length;
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
