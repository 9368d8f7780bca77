package io.sonde.collector.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.format.write.StreamHeader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two archives on one folder (collectors of a Kafka consumer group taking an agent's partition
 * from each other): neither overwrites a segment the other wrote, and a link is still refused.
 */
class SharedArchiveFolderTest {
    @TempDir
    Path out;

    @Test
    void anArchiveCountsAgainWhenAnotherWroteTheAgentsNextSegment() throws Exception {
        UUID agent = UUID.randomUUID();
        Archive first = new Archive(out);
        Archive second = new Archive(out);
        FrameHandler.StreamSink a = first.open(agent, StreamHeader.bytes(), "a");
        a.close();
        FrameHandler.StreamSink b = second.open(agent, StreamHeader.bytes(), "b"); // counts from disk: segment 1
        b.close();
        FrameHandler.StreamSink again = first.open(agent, StreamHeader.bytes(), "a"); // its own count says 1: taken
        again.close();
        assertThat(a.target()).endsWith("-000000.sonde");
        assertThat(b.target()).endsWith("-000001.sonde");
        assertThat(again.target()).endsWith("-000002.sonde");
    }

    @Test
    void aLinkAtTheNextSegmentsPathIsStillRefused() throws Exception {
        UUID agent = UUID.randomUUID();
        Archive archive = new Archive(out);
        archive.open(agent, StreamHeader.bytes(), "a").close();
        Files.createSymbolicLink(archive.segmentPath(agent, 1), out.resolve("elsewhere"));
        assertThatThrownBy(() -> archive.open(agent, StreamHeader.bytes(), "a")).hasMessageContaining("refusing to write segment")
                .hasMessageContaining("-000001.sonde");
    }

    @Test
    void theHighestHeldSequenceOfAnAgentWithoutFramesIsNone() throws Exception {
        UUID agent = UUID.randomUUID();
        assertThat(HeldSequences.highest(out, agent)).isEqualTo(-1);
        new Archive(out).open(agent, StreamHeader.bytes(), "a").close(); // a segment with the stream header only
        assertThat(HeldSequences.highest(out, agent)).isEqualTo(-1);
    }
}
