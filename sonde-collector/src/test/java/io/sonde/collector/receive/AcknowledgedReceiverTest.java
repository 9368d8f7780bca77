package io.sonde.collector.receive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.collector.archive.Archive;
import io.sonde.collector.archive.FrameHandler;
import io.sonde.format.Format;
import io.sonde.format.read.AgentLog;
import io.sonde.format.read.FrameInput;
import io.sonde.format.read.SondeLogs;
import io.sonde.format.read.SondeReader;
import io.sonde.format.stream.DeliveryCodec;
import io.sonde.format.stream.DeliveryMessage;
import io.sonde.format.stream.DeliveryProtocol;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The receiver's side of acknowledged delivery (format 2.2), driven by a hand-made agent on a real
 * loopback socket: duplicates dropped by (agent, sequence) within a run of the receiver and after a
 * restart over the same folder, ACKs only for what is stored (and what a handler could not make
 * durable is not held), tokens checked, a 2.0 stream refused
 * when a token is required, a 2.2 stream without HELLO rejected.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AcknowledgedReceiverTest {
    @TempDir
    Path out;

    final UUID agent = UUID.fromString("0a0b0c0d-0000-4000-8000-000000000001");

    /** Frames 0..n of a valid stream of {@code agent} (frame 0 holds the definitions), each a byte array. */
    List<byte[]> frames(int dataFrames, long seed) {
        TestStreams.Built b = TestStreams.build(agent, seed, dataFrames, false);
        List<byte[]> f = new ArrayList<>();
        for (int i = 0; i < b.frameOffsets.size(); i++) {
            f.add(Arrays.copyOfRange(b.bytes, b.frameOffsets.get(i), b.endOfFrame(i)));
        }
        return f;
    }

    /** A hand-made 2.2 agent: HELLO, then frames; reads the receiver's answers. */
    final class Agent implements AutoCloseable {
        final Socket socket;
        final OutputStream out;
        final FrameInput in;
        final DeliveryMessage answer;

        Agent(int port, String token, long acknowledged, long next) throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setSoTimeout(20_000);
            out = socket.getOutputStream();
            out.write(DeliveryProtocol.streamHeader());
            out.write(new DeliveryCodec(agent, 1, "test").hello(new DeliveryMessage.Hello(token, acknowledged, next)));
            in = new FrameInput(socket.getInputStream(), "receiver");
            assertThat(in.readStreamHeader()).isTrue();
            assertThat(in.minorVersion()).isEqualTo(DeliveryProtocol.STREAM_MINOR_VERSION);
            answer = in.nextFrame() ? DeliveryCodec.decode(in.header(), in.frameBytes()) : null;
        }

        void send(byte[] frame) throws IOException {
            out.write(frame);
        }

        /** Reads ACKs until one covers {@code sequence}; fails if the receiver acknowledges more. */
        void awaitAck(long sequence) throws IOException {
            while (in.nextFrame()) {
                DeliveryMessage m = DeliveryCodec.decode(in.header(), in.frameBytes());
                assertThat(m).isInstanceOf(DeliveryMessage.Ack.class);
                long durable = ((DeliveryMessage.Ack) m).durable();
                assertThat(durable).as("acknowledged, never more than was sent").isLessThanOrEqualTo(sequence);
                if (durable == sequence) return;
            }
            throw new AssertionError("the receiver closed before acknowledging " + sequence);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void framesAlreadyHeldAreDroppedAsDuplicatesAlsoAfterTheReceiverRestarts() throws Exception {
        List<byte[]> f = frames(5, 7); // sequence numbers 0..5
        Events events = new Events();
        Receiver r = Receiver.start(0, new Archive(out), events);
        try (Agent a = new Agent(r.port(), "", DeliveryProtocol.NONE, 0)) {
            assertThat(a.answer).isEqualTo(new DeliveryMessage.Accept(DeliveryProtocol.NONE));
            for (int i = 0; i <= 3; i++) a.send(f.get(i));
            a.awaitAck(3);
            a.send(f.get(2)); // re-sent: held already
            a.send(f.get(3));
            a.send(f.get(4));
            a.awaitAck(4);
        }
        String closed = events.await("closed ");
        StreamSummary s = events.summaries.get(closed.split(" ")[1]);
        assertThat(s.frames()).isEqualTo(5);
        assertThat(s.duplicateFrames()).isEqualTo(2);
        assertThat(s.describe()).contains("2 duplicate frames dropped");
        r.stop();

        // a new receiver over the same folder: it knows frame 4 is held
        Events events2 = new Events();
        Receiver r2 = Receiver.start(0, new Archive(out), events2);
        try (Agent a = new Agent(r2.port(), "", 4, 6)) {
            assertThat(a.answer).isEqualTo(new DeliveryMessage.Accept(4));
            a.send(f.get(3));
            a.send(f.get(4));
            a.send(f.get(5));
            a.awaitAck(5);
        } finally {
            r2.stop();
        }
        assertThat(storedSequences()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        List<String> problems = new ArrayList<>();
        List<AgentLog> logs = SondeLogs.scan(out.resolve(agent.toString()));
        assertThat(logs).hasSize(1);
        try (SondeReader reader = logs.get(0).open().recover(p -> problems.add(p.getMessage()))) {
            while (reader.next()) {
                // read every record: definitions from the first segment, records from both
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void framesALosslessHandlerCouldNotMakeDurableAreNotHeldSoTheAgentsCopiesAreTaken() throws Exception {
        List<byte[]> f = frames(3, 11); // sequence numbers 0..3
        Archive archive = new Archive(out);
        AtomicInteger forces = new AtomicInteger();
        // the archive, except that its first force fails (as the kafka handler's does when Kafka does not acknowledge)
        FrameHandler failsItsFirstForce = (agentId, streamHeader, peer) -> {
            FrameHandler.StreamSink sink = archive.open(agentId, streamHeader, peer);
            return new FrameHandler.StreamSink() {
                @Override
                public void frame(byte[] frame, int length) throws IOException {
                    sink.frame(frame, length);
                }

                @Override
                public void force() throws IOException {
                    if (forces.getAndIncrement() == 0) {
                        throw new IOException("not durable (test)");
                    }
                    sink.force();
                }

                @Override
                public void close() throws IOException {
                    sink.close();
                }

                @Override
                public void abort() {
                    sink.abort();
                }

                @Override
                public String target() {
                    return sink.target();
                }
            };
        };
        Events events = new Events();
        Receiver r = Receiver.start(0, failsItsFirstForce, events);
        try {
            try (Agent a = new Agent(r.port(), "", DeliveryProtocol.NONE, 0)) {
                assertThat(a.answer).isEqualTo(new DeliveryMessage.Accept(DeliveryProtocol.NONE));
                a.send(concat(f)); // one write: the receiver may fail the connection after any of the frames
                assertThatThrownBy(() -> a.awaitAck(3)).as("no ACK for frames the handler could not make durable");
            }
            assertThat(events.await("failed ")).contains("not durable (test)");
            List<Long> firstConnection = storedSequences();
            assertThat(firstConnection).as("the first connection stored a prefix of the frames").isNotEmpty()
                    .isEqualTo(List.of(0L, 1L, 2L, 3L).subList(0, firstConnection.size()));
            // the agent reconnects with nothing acknowledged: the receiver must not claim to hold what it could not make durable
            try (Agent a = new Agent(r.port(), "", DeliveryProtocol.NONE, 4)) {
                assertThat(a.answer).isEqualTo(new DeliveryMessage.Accept(DeliveryProtocol.NONE));
                a.send(concat(f));
                a.awaitAck(3);
            }
        } finally {
            r.stop();
        }
        List<Long> all = storedSequences();
        assertThat(all.subList(all.size() - 4, all.size())).as("the re-sent frames taken again, not dropped as duplicates: %s", all)
                .containsExactly(0L, 1L, 2L, 3L);
    }

    private static byte[] concat(List<byte[]> frames) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        frames.forEach(b::writeBytes);
        return b.toByteArray();
    }

    @Test
    void aNewRunOfTheAgentIdStartsAgainAtZero() throws Exception {
        List<byte[]> f = frames(2, 9);
        Receiver r = Receiver.start(0, new Archive(out), new Events());
        try {
            try (Agent a = new Agent(r.port(), "", DeliveryProtocol.NONE, 0)) {
                for (byte[] frame : f) a.send(frame);
                a.awaitAck(2);
            }
            // the same agent id from a process that sealed nothing yet (next 0): its frame 0 is new
            try (Agent a = new Agent(r.port(), "", DeliveryProtocol.NONE, 0)) {
                assertThat(a.answer).isEqualTo(new DeliveryMessage.Accept(DeliveryProtocol.NONE));
                a.send(f.get(0));
                a.awaitAck(0);
            }
        } finally {
            r.stop();
        }
        assertThat(storedSequences()).containsExactly(0L, 1L, 2L, 0L);
        assertThat(SondeLogs.scan(out.resolve(agent.toString()))).as("two runs").hasSize(2);
    }

    @Test
    void anAgentWhoseAcknowledgedFramesTheArchiveLacksIsToldWhatIsHeldAndTheLossIsReported() throws Exception {
        Events events = new Events();
        Receiver r = Receiver.start(0, new Archive(out), events);
        try (Agent a = new Agent(r.port(), "", 10, 12)) {
            assertThat(a.answer).isEqualTo(new DeliveryMessage.Accept(10));
        } finally {
            r.stop();
        }
        assertThat(events.await("notice ")).contains("frames 0..10 are lost on the collector's side");
    }

    @Test
    void aWrongOrMissingTokenIsRefusedWithTheReasonAndTheRightOneIsTaken() throws Exception {
        Events events = new Events();
        Receiver r = Receiver.start(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0), new Archive(out), events,
                ReceiverLimits.defaults(), new Delivery("s3cret", Map.of()));
        try {
            try (Agent a = new Agent(r.port(), "guess", DeliveryProtocol.NONE, 0)) {
                assertThat(a.answer).isEqualTo(new DeliveryMessage.Refuse(DeliveryProtocol.REFUSED_TOKEN, "wrong token from agent " + agent));
                assertThat(a.in.nextFrame()).as("closed after REFUSE").isFalse();
            }
            assertThat(events.await("failed ")).contains("refused: wrong token from agent " + agent);
            try (Agent a = new Agent(r.port(), "", DeliveryProtocol.NONE, 0)) {
                assertThat(((DeliveryMessage.Refuse) a.answer).reason()).contains("requires a token").contains("sent none");
            }
            // a stream without HELLO (1.0 or 2.0) cannot carry a token: refused, nothing stored
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), r.port())) {
                s.getOutputStream().write(TestStreams.build(agent, 3, 2, true).bytes);
                s.setSoTimeout(20_000);
                assertThat(s.getInputStream().read()).as("closed by the receiver").isEqualTo(-1);
            } catch (java.net.SocketException reset) {
                // the receiver resets a refused connection; the write or read may see it
            }
            events.awaitCount("failed ", 3);
            assertThat(events.lines).anyMatch(l -> l.contains("stream has no HELLO to carry a token, and this collector requires one"));
            assertThat(storedSequences()).isEmpty();
            try (Agent a = new Agent(r.port(), "s3cret", DeliveryProtocol.NONE, 0)) {
                assertThat(a.answer).isEqualTo(new DeliveryMessage.Accept(DeliveryProtocol.NONE));
                for (byte[] frame : frames(1, 4)) a.send(frame);
                a.awaitAck(1);
            }
        } finally {
            r.stop();
        }
        assertThat(storedSequences()).containsExactly(0L, 1L);
    }

    @Test
    void aTwoTwoStreamThatDoesNotOpenWithHelloOrSendsAMalformedOneIsRejected() throws Exception {
        Events events = new Events();
        Receiver r = Receiver.start(0, new Archive(out), events);
        try {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), r.port())) {
                s.getOutputStream().write(DeliveryProtocol.streamHeader());
                s.getOutputStream().write(frames(1, 5).get(0));
                assertThat(events.await("failed ")).contains("offset 24: a 2.2 stream must open with a HELLO frame");
            }
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), r.port())) {
                byte[] hello = new DeliveryCodec(agent, 1, "").ack(3); // an ACK where HELLO belongs: right length for none of its fields
                hello[Format.FRAME_OFF_TYPE] = DeliveryProtocol.FRAME_HELLO;
                resealCrc(hello);
                s.getOutputStream().write(DeliveryProtocol.streamHeader());
                s.getOutputStream().write(hello);
                events.awaitCount("failed ", 2);
            }
            assertThat(events.lines).anyMatch(l -> l.contains("HELLO: ") && l.contains("payload ends"));
        } finally {
            r.stop();
        }
        assertThat(storedSequences()).isEmpty();
    }

    private static void resealCrc(byte[] frame) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(frame, Format.FRAME_OFF_TYPE, frame.length - Format.FRAME_OFF_TYPE);
        ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).putInt(Format.FRAME_OFF_CRC, (int) crc.getValue());
    }

    /** Sequence numbers of the numbered frames stored for the agent, segment by segment, in file order. */
    private List<Long> storedSequences() throws IOException {
        List<Long> seqs = new ArrayList<>();
        Path dir = out.resolve(agent.toString());
        if (!Files.isDirectory(dir)) return seqs;
        List<Path> segments;
        try (Stream<Path> files = Files.list(dir)) {
            segments = files.sorted().toList();
        }
        for (Path segment : segments) {
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(segment)).order(ByteOrder.LITTLE_ENDIAN);
            for (int at = Format.STREAM_HEADER_BYTES; at < b.limit(); at += b.getInt(at + Format.FRAME_OFF_LENGTH)) {
                if (!DeliveryProtocol.isRepeat(b.get(at + Format.FRAME_OFF_FLAGS))) seqs.add(b.getLong(at + Format.FRAME_OFF_SEQUENCE));
            }
        }
        return seqs;
    }
}
