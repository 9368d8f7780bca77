package io.sonde.core.writer;

import io.sonde.format.DropReason;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.UUID;

/** What the pipeline offers its writer: frame sealing, registry frames and the agent's identity. */
public interface WriterContext {
    /** Receives sealed frames. */
    @FunctionalInterface
    interface FrameSink {
        void accept(ByteBuffer sealedFrame) throws IOException;
    }

    /** Seals a frame held in {@code [0, position())}: next sequence number, times, CRC; then flips it. */
    void seal(ByteBuffer frame);

    /** Gives a sealed frame (in {@code [0, limit())}) the next sequence number and a new CRC, for re-sending. */
    void reseal(ByteBuffer sealedFrame);

    /**
     * Builds sealed DATA frames whose registry blocks hold every current definition and passes
     * each to {@code sink} (one frame unless the definitions exceed the frame size). Every new file
     * segment and TCP connection starts with these, right after the stream header.
     */
    void registryFrames(FrameSink sink) throws IOException;

    /**
     * Like {@link #registryFrames} but the frames are flagged as repeats ({@code FLAG_REPEAT}, format
     * 2.2) and all carry {@code sequence} instead of taking new numbers: the opening of a TCP
     * reconnection that re-sends frames under their original numbers.
     */
    void repeatedRegistryFrames(long sequence, FrameSink sink) throws IOException;

    /** A sealed SEGMENT_END frame naming the next segment index (buffer reused between calls). */
    ByteBuffer segmentEndFrame(int nextSegmentIndex);

    /** Header length of this agent's frames (a SEGMENT_END frame is this + 4 bytes). */
    int frameHeaderBytes();

    /** The agent id written in every frame header. */
    UUID agentId();

    /** True once the pipeline is closing: retry loops (reconnects) should give up soon. */
    boolean closing();

    /** System.nanoTime() by which a closing pipeline wants the writer to be done. */
    long closeDeadlineNanos();

    /**
     * Data records in the frame of the {@link Writer#write} call in progress (writer thread only);
     * 0 outside one and for frames the writer makes itself (registry, SEGMENT_END). A writer that
     * learns only later whether a frame arrived keeps this with the frame, for
     * {@link #droppedAfterWrite}.
     */
    long recordsInFrame();

    /**
     * Whether the frame being handed over carries definitions (a registry block): the frame of the
     * {@link Writer#write} call in progress, or the registry frame being passed to a
     * {@link FrameSink} (always true there). Writer thread only. A writer that learns only later
     * whether a frame arrived keeps this with the frame, for {@link #definitionsLostAfterWrite}.
     */
    boolean definitionsInFrame();

    /**
     * A frame that carried definitions ({@link #definitionsInFrame} was true when it was handed
     * over) is lost after all, e.g. the broker refused it after {@code write} returned. Without its
     * definitions the records that use them cannot be read, so the pipeline sends every definition
     * again, in a frame of its own, before the next frame it hands over. Any thread. The frame's
     * records are reported with {@link #droppedAfterWrite}. A writer that reports this before it
     * takes its next frame loses nothing else: frames it took in between may hold records that
     * need the lost definitions.
     */
    void definitionsLostAfterWrite();

    /**
     * Records of a frame the writer had taken (counted as written) that are lost after all, e.g.
     * the broker refused the frame after {@code write} returned: they move from written to dropped
     * with {@code reason}, so produced = written + dropped still holds. Any thread. What is reported
     * before {@link Writer#awaitDelivery} returns at close is in the trailer; later reports change
     * only the pipeline's counters.
     */
    void droppedAfterWrite(DropReason reason, long records);
}
