package io.sonde.bench.overhead.kieker;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Counts the benchmarked method's records in the output folder of Kieker's binary file writer. */
public final class KiekerFiles {

    private KiekerFiles() {}

    /**
     * Counts execution records under {@code root} (which holds one {@code kieker-*} folder with a
     * {@code kieker.map} and {@code *.bin} files).
     *
     * @throws IOException naming the file and offset of anything unreadable
     */
    public static KiekerRecordCounter count(Path root, String signatureMarker) throws IOException {
        KiekerRecordCounter counter = new KiekerRecordCounter(signatureMarker);
        List<Path> maps;
        List<Path> bins;
        try (Stream<Path> all = Files.walk(root)) {
            List<Path> files = all.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
            maps = files.stream().filter(p -> p.getFileName().toString().equals("kieker.map")).collect(Collectors.toList());
            bins = files.stream().filter(p -> p.getFileName().toString().endsWith(".bin")).collect(Collectors.toList());
        }
        if (maps.isEmpty()) {
            throw new IOException(root + ": no kieker.map (did Kieker write anything?)");
        }
        for (Path map : maps) {
            List<String> lines = Files.readAllLines(map, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                int eq = line.indexOf('=');
                if (line.isEmpty()) {
                    continue;
                }
                if (!line.startsWith("$") || eq < 2) {
                    throw new IOException(map + " line " + (i + 1) + ": expected $ID=VALUE");
                }
                try {
                    counter.registerString(Integer.parseInt(line.substring(1, eq)), line.substring(eq + 1));
                } catch (NumberFormatException e) {
                    throw new IOException(map + " line " + (i + 1) + ": '" + line.substring(1, eq) + "' is not an id");
                }
            }
        }
        for (Path bin : bins) {
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(bin), 1 << 16))) {
                counter.consume(in, bin.toString());
            }
        }
        return counter;
    }
}
