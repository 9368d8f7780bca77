package io.sonde.core.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The official Prometheus text parser, {@code prometheus_client.parser.text_string_to_metric_families}
 * of the Python client, run in a real Python process on an exposition the tests scraped
 * ({@code sonde-python/tests/prometheus/parse_exposition.py}). The client is installed on first use
 * into a venv in the module's {@code target/prometheus-client-venv} with pip, at the version pinned
 * in {@code sonde-python/tests/prometheus/requirements.txt}, and reused by later runs while it holds
 * that version. Needs {@code python3} (3.9 or newer, with venv; {@code -Dsonde.python} names
 * another) and PyPI (or pip's configured mirror) the first time; without them the tests using this
 * fail with a message saying so, they are never skipped.
 */
public final class PrometheusClient {
    private static final long INSTALL_TIMEOUT_SECONDS = 300;
    private static final long PARSE_TIMEOUT_SECONDS = 120;
    private static Path venvPython; // guarded by PrometheusClient.class

    /** One sample as the client read it: name, labels, value. */
    public record Sample(String name, Map<String, String> labels, double value) {}

    /** One family as the client read it; a counter's name is without {@code _total} (its samples keep it). */
    public record Family(String name, String type, String help, List<Sample> samples) {}

    /** What the client read: its version and the families in the order it yielded them. */
    public record Parsed(String version, List<Family> families) {
        /** The families by name; fails if the client yielded a name twice. */
        public Map<String, Family> byName() {
            Map<String, Family> m = new LinkedHashMap<>();
            for (Family f : families) {
                assertThat(m.put(f.name(), f)).as("prometheus_client read the family " + f.name() + " twice").isNull();
            }
            return m;
        }

        /** The one sample named {@code name} whose labels are exactly {@code labels}. */
        public double value(String name, Map<String, String> labels) {
            List<Sample> found = families.stream().flatMap(f -> f.samples().stream())
                    .filter(s -> s.name().equals(name) && s.labels().equals(labels)).toList();
            assertThat(found).as("prometheus_client's samples " + name + labels).hasSize(1);
            return found.get(0).value();
        }
    }

    private PrometheusClient() {}

    /** Parses {@code exposition} with prometheus_client in a Python process; fails with the parser's message if it refuses it. */
    public static Parsed parse(String exposition) throws IOException, InterruptedException {
        Path script = pythonTests().resolve("parse_exposition.py");
        Path in = Files.createTempFile("sonde-exposition-", ".txt");
        Path out = Files.createTempFile("sonde-exposition-", ".parsed");
        try {
            Files.writeString(in, exposition, StandardCharsets.UTF_8);
            String output = run(List.of(python().toString(), script.toString()), in, out, PARSE_TIMEOUT_SECONDS, "parsing");
            return read(output);
        } finally {
            Files.deleteIfExists(in);
            Files.deleteIfExists(out);
        }
    }

    /**
     * Parses {@code exposition} with prometheus_client and checks what a Prometheus server relies on:
     * every sample in a declared family (none of type unknown or untyped), no family twice, no series
     * twice, a counter's samples named {@code _total}, a histogram's {@code _bucket}, {@code _sum} and
     * {@code _count} in its family; and that it read the same families, types, help texts, label sets
     * and values as our strict {@link PrometheusParser}.
     *
     * @return the families by the client's names
     */
    public static Map<String, Family> parseAndCheck(String exposition) throws IOException, InterruptedException {
        Parsed parsed = parse(exposition);
        Map<String, Family> byName = parsed.byName();
        Set<String> series = new HashSet<>();
        List<String> theirs = new ArrayList<>();
        for (Family f : parsed.families()) {
            assertThat(f.type()).as("type of " + f.name() + " (a sample outside its declared family reads as unknown)")
                    .isIn("counter", "gauge", "histogram");
            for (Sample s : f.samples()) {
                assertThat(series.add(s.name() + new TreeMap<>(s.labels()))).as("series written twice: " + s).isTrue();
                switch (f.type()) {
                    case "counter" -> assertThat(s.name()).isEqualTo(f.name() + "_total");
                    case "histogram" -> assertThat(s.name()).isIn(f.name() + "_bucket", f.name() + "_sum", f.name() + "_count");
                    default -> assertThat(s.name()).isEqualTo(f.name());
                }
                theirs.add(line(familyName(f), f.type(), f.help(), s.name(), s.labels(), s.value()));
            }
            if (f.samples().isEmpty()) theirs.add(line(familyName(f), f.type(), f.help(), "", Map.of(), 0));
        }
        List<String> ours = new ArrayList<>();
        for (PrometheusParser.Family f : PrometheusParser.parse(exposition).values()) {
            for (PrometheusParser.Sample s : f.samples()) {
                ours.add(line(f.name(), f.type(), f.help(), s.name(), s.labels(), s.value()));
            }
            if (f.samples().isEmpty()) ours.add(line(f.name(), f.type(), f.help(), "", Map.of(), 0));
        }
        assertThat(theirs).as("prometheus_client and the strict parser read the same samples").containsExactlyElementsOf(ours);
        return byName;
    }

    /** The family name as written: the client drops a counter's {@code _total}. */
    private static String familyName(Family f) {
        return f.type().equals("counter") ? f.name() + "_total" : f.name();
    }

    private static String line(String family, String type, String help, String sample, Map<String, String> labels, double value) {
        return family + " " + type + " " + help + " | " + sample + new TreeMap<>(labels) + " " + Double.doubleToLongBits(value);
    }

    /** Reads the script's lines (see parse_exposition.py). */
    static Parsed read(String output) {
        String[] lines = output.split("\n");
        assertThat(lines[0]).startsWith("version ");
        String version = lines[0].substring("version ".length());
        List<Family> families = new ArrayList<>();
        List<Sample> samples = null;
        for (int i = 1; i < lines.length; i++) {
            String[] p = lines[i].split(" ", -1);
            if (p[0].equals("family")) {
                samples = new ArrayList<>();
                families.add(new Family(p[1], p[2], decode(p[3]), samples));
            } else if (p[0].equals("sample") && samples != null) {
                Map<String, String> labels = new LinkedHashMap<>();
                for (int k = 3; k < p.length; k++) {
                    int eq = p[k].indexOf('=');
                    labels.put(p[k].substring(0, eq), decode(p[k].substring(eq + 1)));
                }
                samples.add(new Sample(p[1], labels, Double.parseDouble(p[2])));
            } else {
                throw new IllegalStateException("unexpected line " + (i + 1) + " from parse_exposition.py: '" + lines[i] + "'");
            }
        }
        return new Parsed(version, families);
    }

    private static String decode(String percentEncoded) {
        return URLDecoder.decode(percentEncoded.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** The venv's interpreter with the pinned prometheus_client, made on first use. */
    static synchronized Path python() throws IOException, InterruptedException {
        if (venvPython != null) return venvPython;
        Path requirements = pythonTests().resolve("requirements.txt");
        String pinned = pinnedVersion(requirements);
        Path venv = Path.of("target", "prometheus-client-venv").toAbsolutePath();
        Path python = venv.resolve("bin").resolve("python");
        if (!pinned.equals(installedVersion(python))) {
            deleteTree(venv);
            String base = System.getProperty("sonde.python", "python3");
            Path log = venv.resolveSibling("prometheus-client-venv.log");
            Files.createDirectories(venv.getParent());
            run(List.of(base, "-m", "venv", venv.toString()), null, log, INSTALL_TIMEOUT_SECONDS,
                    "making a venv (needs python3 >= 3.9 with venv on the PATH, or -Dsonde.python=/path/to/python)");
            run(List.of(python.toString(), "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", requirements.toString()), null, log,
                    INSTALL_TIMEOUT_SECONDS, "installing " + requirements + " from PyPI with pip");
            String installed = installedVersion(python);
            if (!pinned.equals(installed)) {
                throw new IllegalStateException("pip installed prometheus_client " + installed + " into " + venv + ", not the pinned " + pinned);
            }
        }
        venvPython = python;
        return python;
    }

    /** The version in {@code prometheus_client==X} of the requirements file. */
    static String pinnedVersion(Path requirements) throws IOException {
        return Files.readAllLines(requirements).stream().map(String::trim).filter(l -> l.startsWith("prometheus_client=="))
                .map(l -> l.substring("prometheus_client==".length())).findFirst()
                .orElseThrow(() -> new IllegalStateException(requirements + " pins no prometheus_client==VERSION"));
    }

    /** The prometheus_client version {@code python} imports, or null (no such interpreter, or no client). */
    private static String installedVersion(Path python) throws IOException, InterruptedException {
        if (!Files.isExecutable(python)) return null;
        Path log = Files.createTempFile("sonde-venv-", ".out");
        try {
            return run(List.of(python.toString(), "-c", "import importlib.metadata as m, prometheus_client; print(m.version('prometheus_client'))"),
                    null, log, PARSE_TIMEOUT_SECONDS, "asking the venv's version").trim();
        } catch (IllegalStateException e) {
            return null;
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** Runs {@code command} (stdin from {@code in} or nothing), waits, returns stdout; fails with its output unless it exits 0. */
    private static String run(List<String> command, Path in, Path out, long timeoutSeconds, String what) throws IOException, InterruptedException {
        Path err = Files.createTempFile("sonde-python-", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
            if (in != null) pb.redirectInput(in.toFile());
            pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
            pb.environment().remove("PYTHONPATH");
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                throw new IllegalStateException(what + ": cannot start " + command.get(0) + ": " + e.getMessage(), e);
            }
            if (in == null) p.getOutputStream().close();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(what + ": " + String.join(" ", command) + " did not finish within " + timeoutSeconds + " s");
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(what + ": " + String.join(" ", command) + " exited with " + p.exitValue() + ":\n"
                        + Files.readString(err, StandardCharsets.UTF_8) + stdout);
            }
            return stdout;
        } finally {
            Files.deleteIfExists(err);
        }
    }

    /** {@code sonde-python/tests/prometheus} of the repository ({@code ../sonde-python} unless -Dsonde.python.dir says otherwise). */
    private static Path pythonTests() {
        Path dir = Path.of(System.getProperty("sonde.python.dir", "../sonde-python")).toAbsolutePath().normalize().resolve("tests/prometheus");
        if (!Files.isRegularFile(dir.resolve("parse_exposition.py"))) {
            throw new IllegalStateException("the Prometheus parser script is not at " + dir + " (set -Dsonde.python.dir)");
        }
        return dir;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
