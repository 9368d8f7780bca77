package io.sonde.bench.ingest;

import io.sonde.format.write.StreamHeader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.UUID;
import java.util.zip.CRC32C;

/** One agent of the benchmark: a stream header, the registry frame, then DATA frames until the deadline. */
final class Sender extends Thread {
    private final FrameTemplate template;
    private final int port;
    private final long deadline;
    private final UUID agent;
    volatile Throwable failure;

    Sender(FrameTemplate template, int port, int index, long deadline) {
        super("ingest-sender-" + index);
        this.template = template;
        this.port = port;
        this.deadline = deadline;
        this.agent = UUID.randomUUID();
    }

    @Override
    public void run() {
        CRC32C crc = new CRC32C();
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSendBufferSize(1 << 20);
            OutputStream out = s.getOutputStream();
            out.write(StreamHeader.bytes());
            byte[] registry = template.registryCopy();
            FrameTemplate.patch(registry, agent, 0, crc);
            out.write(registry);
            byte[] frame = template.dataCopy();
            long seq = 1;
            while (System.nanoTime() < deadline) {
                FrameTemplate.patch(frame, agent, seq++, crc);
                out.write(frame);
            }
            out.flush();
        } catch (Throwable e) {
            failure = e;
        }
    }
}
