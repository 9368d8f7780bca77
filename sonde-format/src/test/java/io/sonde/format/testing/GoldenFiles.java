package io.sonde.format.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Access to the golden files on the test class path, and a way to write them out. */
public final class GoldenFiles {
    private GoldenFiles() {}

    /** The bytes of golden/{relative} from the test class path. */
    public static byte[] bytes(String relative) {
        try (InputStream in = GoldenFiles.class.getResourceAsStream("/golden/" + relative)) {
            if (in == null) {
                throw new IllegalStateException("golden file missing from the class path: " + relative);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Copies golden/{relative} into dir (keeping the file name) and returns the new path. */
    public static Path copyTo(String relative, Path dir) throws IOException {
        Path target = dir.resolve(Path.of(relative).getFileName().toString());
        Files.write(target, bytes(relative));
        return target;
    }

    /** Writes every scenario into dir (used to regenerate the files). */
    public static void writeAll(Path dir) throws IOException {
        for (Map.Entry<String, byte[]> e : GoldenScenarios.all().entrySet()) {
            Path p = dir.resolve(e.getKey());
            Files.createDirectories(p.getParent());
            Files.write(p, e.getValue());
        }
    }
}
