package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sonde.format.Format;
import io.sonde.format.read.SondeReader;
import io.sonde.format.testing.GoldenFiles;
import io.sonde.format.testing.GoldenScenarios;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * End to end in a real headless Chromium: the demo records a log, {@code sonde dashboard} serves
 * it from its own process on a free loopback port, and each page shows the numbers the log holds:
 * call and error counts as the format's reader counts the records, latency percentiles, call
 * trees and service demands as {@code sonde analyze} computes them. Screenshots of every page go
 * to {@code target/screenshots/}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DashboardBrowserTest {
    static final int ORDERS = 600;
    static final Path SCREENSHOTS = Path.of("target", "screenshots");
    static final String ROOT_OPERATION = "demo.shop.OrderService.handleOrder";

    @TempDir
    static Path tmp;
    static Path log;
    static Process dashboard;
    static String base;
    static ChromeDriver browser;
    static JsonNode analysis;
    static JsonNode demands;
    static final Map<String, long[]> fromReader = new HashMap<>(); // operation -> {enters, exception exits}

    @BeforeAll
    static void setUp() throws Exception {
        String missing = Chromium.ensureInstalled();
        Assumptions.assumeTrue(missing == null, missing);
        log = tmp.resolve("demo");
        Object[] demo = CliRun.run("demo", "--out", log.toString(), "--threads", "3", "--orders", Integer.toString(ORDERS));
        assertThat(demo[0]).as("%s", demo[2]).isEqualTo(0);
        readRecords();
        dashboard = startDashboard();
        // the API's bucket width, so analyze's timeline is the dashboard's
        long bucket = new ObjectMapper().readTree(http("/api/log")).get("bucketNanos").asLong();
        Path json = tmp.resolve("analysis.json");
        Path demandJson = tmp.resolve("demands.json");
        Object[] a = CliRun.run("analyze", log.toString(), "--no-progress", "--trees", "100", "--json", json.toString(),
                "--bucket", Double.toString(bucket / 1e9), "--demands-json", demandJson.toString());
        assertThat(a[0]).as("%s", a[2]).isEqualTo(0);
        analysis = new ObjectMapper().readTree(json.toFile());
        demands = new ObjectMapper().readTree(demandJson.toFile());
        Files.createDirectories(SCREENSHOTS);
        browser = Chromium.start();
    }

    /** Counts ENTER and exceptional EXIT records per probe name, straight from the log. */
    static void readRecords() throws IOException {
        try (SondeReader r = SondeReader.open(log)) {
            while (r.next()) {
                byte t = r.type();
                if (t == Format.ENTER || t == Format.ENTER_CPU) fromReader.computeIfAbsent(r.probeName(), k -> new long[2])[0]++;
                if (t == Format.EXIT_EXCEPTION || t == Format.EXIT_EXCEPTION_CPU) fromReader.computeIfAbsent(r.probeName(), k -> new long[2])[1]++;
            }
        }
        assertThat(fromReader.get(ROOT_OPERATION)[0]).isEqualTo(ORDERS);
    }

    /** {@code sonde dashboard LOG --port 0} in its own JVM; waits for the line with its address. */
    static Process startDashboard() throws Exception {
        Launched l = launch("dashboard", log.toString(), "--port", "0");
        base = l.url();
        return l.process();
    }

    /** A sonde process, the dashboard address it printed, and what it printed up to that line. */
    record Launched(Process process, String url, String output) {}

    /** Runs {@code sonde ARGS} in its own JVM and waits for its line {@code dashboard at http://127.0.0.1:PORT/}. */
    static Launched launch(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), "io.sonde.cli.SondeCommand"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        Pattern ready = Pattern.compile("dashboard at (http://127\\.0\\.0\\.1:\\d+)/");
        StringBuilder seen = new StringBuilder();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        String line;
        while (System.nanoTime() < deadline && (line = out.readLine()) != null) {
            seen.append(line).append('\n');
            Matcher m = ready.matcher(line);
            if (m.find()) {
                Thread drain = new Thread(() -> {
                    try {
                        while (out.readLine() != null) { /* keep the pipe from filling */ }
                    } catch (IOException ignored) {
                        // the process ended
                    }
                }, "sonde-output");
                drain.setDaemon(true);
                drain.start();
                return new Launched(p, m.group(1), seen.toString());
            }
        }
        p.destroyForcibly();
        throw new AssertionError("sonde " + String.join(" ", args) + " did not print its dashboard address:\n" + seen);
    }

    static String http(String path) throws Exception {
        return http(base, path);
    }

    static String http(String url, String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url + path))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return r.body();
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (browser != null) browser.quit();
        if (dashboard != null) {
            dashboard.destroy(); // SIGTERM: the command's shutdown hook stops the server
            if (!dashboard.waitFor(30, TimeUnit.SECONDS)) dashboard.destroyForcibly();
        }
    }

    static WebDriverWait waiting() {
        WebDriverWait w = new WebDriverWait(browser, Duration.ofSeconds(90));
        w.withMessage(() -> "the page at " + browser.getCurrentUrl() + " shows: " + browser.findElement(By.tagName("body")).getText());
        return w;
    }

    /** Opens a page by its address and waits until the app has rendered it and shows {@code id}. */
    static WebElement open(String hash, String id) {
        load(base + "/" + hash);
        return waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id(id)));
    }

    /** Loads the page afresh (going to another hash of the same page would only be a fragment navigation). */
    static void load(String url) {
        browser.get("about:blank");
        browser.get(url);
    }

    static void screenshot(String name) throws IOException {
        Files.write(SCREENSHOTS.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
    }

    static JsonNode analyzed(String operation) {
        for (JsonNode o : analysis.get("operations")) if (o.get("operation").asText().equals(operation)) return o;
        throw new AssertionError("sonde analyze has no operation " + operation);
    }

    @Test
    @Order(1)
    void rootAndOperationsAnswerAsTheContractSays() throws Exception {
        assertThat(http("/")).contains("<title>Sonde dashboard</title>");
        JsonNode ops = new ObjectMapper().readTree(http("/api/operations"));
        assertThat(ops.isArray()).isTrue();
        assertThat(ops).hasSize(fromReader.size());
        for (JsonNode o : ops) {
            assertThat(o.get("count").asLong()).isEqualTo(fromReader.get(o.get("operation").asText())[0]);
            assertThat(o.has("p50") && o.has("p90") && o.has("p99") && o.has("max")).isTrue();
        }
    }

    @Test
    @Order(2)
    void operationsPageShowsTheLogsNumbers() throws Exception {
        WebElement table = open("#/operations", "operations-table");
        List<WebElement> rows = table.findElements(By.cssSelector("tbody tr"));
        assertThat(rows).hasSize(fromReader.size());
        for (WebElement row : rows) {
            String op = row.getAttribute("data-operation");
            assertThat(value(row, "count")).as(op).isEqualTo(fromReader.get(op)[0]);
            assertThat(value(row, "errors")).as(op).isEqualTo(fromReader.get(op)[1]);
            JsonNode a = analyzed(op).get("inclusiveNanos");
            for (String p : List.of("p50", "p90", "p99", "max", "total")) assertThat(value(row, p)).as(op + " " + p).isEqualTo(a.get(p).asLong());
            // the text shown is the value formatted, not a placeholder
            assertThat(row.findElement(By.cssSelector("td[data-field=p99]")).getText()).matches("[0-9.]+ (ns|µs|ms|s)");
        }
        assertThat(fromReader.get("demo.shop.Payment.charge")[1]).isPositive(); // declined payments are errors
        // the first operation's latency and rate over time, from the timeline of the same analysis
        waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("latency-chart")));
        assertThat(browser.findElements(By.cssSelector("#rate-chart circle"))).isNotEmpty();
        // a recorded log has no live range, and the range bar says why
        assertThat(browser.findElement(By.id("range-live-unavailable")).getText()).contains("need a collector", "sonde collector");
        assertThat(browser.findElements(By.id("range-live-60"))).isEmpty();
        screenshot("operations");

        // choosing another operation with the keyboard puts it in the address
        WebElement pricing = browser.findElement(By.xpath("//tr[@data-operation='demo.shop.Pricing.quote']//button"));
        pricing.sendKeys(Keys.ENTER);
        waiting().until(ExpectedConditions.urlContains("op=demo.shop.Pricing.quote"));
        waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.id("operation-detail"), "demo.shop.Pricing.quote over time"));
        long calls = 0;
        for (JsonNode c : timelineCalls("demo.shop.Pricing.quote")) calls += c.asLong();
        assertThat(browser.findElement(By.cssSelector("#operation-detail .note")).getText()).startsWith(String.format(Locale.US, "%,d call(s)", calls));

        // an address asking for the live range gets the reason, not an empty table
        open("#/operations?range=live&last=60", "range-live-unavailable");
        assertThat(browser.findElement(By.id("main")).getText()).contains("Live operations are not offered: live operations need a collector");
        assertThat(browser.findElements(By.id("live-operations-table"))).isEmpty();
    }

    static JsonNode timelineCalls(String operation) {
        for (JsonNode o : analysis.get("timeline").get("operations")) if (o.get("operation").asText().equals(operation)) return o.get("calls");
        throw new AssertionError("no timeline of " + operation);
    }

    static long value(WebElement row, String field) {
        return Long.parseLong(row.findElement(By.cssSelector("td[data-field=" + field + "]")).getAttribute("data-value"));
    }

    @Test
    @Order(3)
    void tracesPageSearchesAndShowsOneRequestsCallTree() throws Exception {
        open("#/traces?op=" + ROOT_OPERATION + "&limit=20", "traces-table");
        assertThat(browser.findElement(By.id("trace-count")).getAttribute("data-matches")).isEqualTo(Integer.toString(ORDERS));
        List<WebElement> rows = browser.findElements(By.cssSelector("#traces-table tbody tr"));
        assertThat(rows).hasSize(20);
        String id = rows.get(0).getAttribute("data-trace");
        rows.get(0).findElement(By.tagName("a")).sendKeys(Keys.ENTER);
        WebElement tree = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("call-tree")));
        assertThat(browser.getCurrentUrl()).contains("trace=" + id);
        waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("trace-timeline")));
        screenshot("traces");

        // the same request in sonde analyze's kept trees: same executions, same wall and CPU times
        long traceId = Long.parseUnsignedLong(id.substring(id.indexOf('-') + 1), 16);
        List<JsonNode> nodes = new ArrayList<>();
        for (JsonNode piece : analysis.get("trees")) {
            if (piece.get("rootTraceId").asLong() == traceId) piece.get("nodes").forEach(nodes::add);
        }
        assertThat(nodes).as("request %s among sonde analyze's kept trees", id).isNotEmpty();
        List<WebElement> shown = tree.findElements(By.cssSelector("tbody tr.node"));
        assertThat(shown).hasSize(nodes.size());
        Map<String, Long> wallByOperation = new HashMap<>();
        for (JsonNode n : nodes) wallByOperation.put(n.get("operation").asText(), n.get("wallInclusiveNanos").asLong());
        for (WebElement row : shown) {
            String op = row.getAttribute("data-operation");
            assertThat(Long.parseLong(row.findElement(By.cssSelector("td[data-field=wall]")).getAttribute("data-value")))
                    .as(op).isEqualTo(wallByOperation.get(op));
        }
        assertThat(shown.get(0).getAttribute("data-operation")).isEqualTo(ROOT_OPERATION);

        // collapse the root with the keyboard: its callees are hidden, expanding shows them again
        WebElement toggle = shown.get(0).findElement(By.cssSelector("button.toggle"));
        toggle.sendKeys(Keys.ENTER);
        assertThat(toggle.getAttribute("aria-expanded")).isEqualTo("false");
        assertThat(shown.get(1).isDisplayed()).isFalse();
        toggle.sendKeys(Keys.SPACE);
        assertThat(shown.get(1).isDisplayed()).isTrue();

        // a search that finds nothing says so; an id not in the log is an error naming it
        open("#/traces?minMs=100000", "trace-results");
        assertThat(browser.findElement(By.cssSelector("#trace-results .empty")).getText()).contains("No request matches");
        open("#/traces?trace=0-fffffff", "trace-detail");
        assertThat(browser.findElement(By.cssSelector("#trace-detail .error")).getText()).contains("0-fffffff");
    }

    @Test
    @Order(4)
    void whatIfPagePredictsWithTheMeasuredDemand() throws Exception {
        open("#/whatif?op=" + ROOT_OPERATION + "&strategy=thread-pool&pool=2&cpus=1&from=1&to=16&points=4&run=1", "whatif-table");
        assertThat(browser.findElements(By.cssSelector("#whatif-table tbody tr"))).hasSize(4);
        assertThat(browser.findElements(By.cssSelector("#whatif-response circle.knee"))).hasSize(1);
        double cpuMillis = Double.NaN;
        for (JsonNode g : demands.get("groups")) {
            for (JsonNode o : g.get("operations")) if (o.get("operation").asText().equals(ROOT_OPERATION)) cpuMillis = o.get("meanCpuMillis").asDouble();
        }
        assertThat(cpuMillis).isPositive();
        assertThat(browser.findElement(By.id("whatif-note")).getText())
                .contains(String.format(Locale.ROOT, "mean CPU time of %s: %.3f ms", ROOT_OPERATION, cpuMillis));
        screenshot("whatif");
    }

    @Test
    @Order(5)
    void darkThemeIsOneKeyPressAway() throws Exception {
        open("#/operations", "operations-table");
        String light = browser.findElement(By.tagName("body")).getCssValue("background-color");
        WebElement theme = browser.findElement(By.id("theme"));
        theme.sendKeys(Keys.ENTER);
        assertThat(((JavascriptExecutor) browser).executeScript("return document.documentElement.dataset.theme")).isEqualTo("dark");
        assertThat(theme.getAttribute("aria-pressed")).isEqualTo("true");
        waiting().until(d -> !d.findElement(By.tagName("body")).getCssValue("background-color").equals(light));
        waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("latency-chart")));
        screenshot("operations-dark");
        theme.sendKeys(Keys.ENTER);
        assertThat(((JavascriptExecutor) browser).executeScript("return document.documentElement.dataset.theme")).isEqualTo("light");
    }

    @Test
    @Order(6)
    void collectorDashboardShowsItsAgentsAndArchive() throws Exception {
        Path archive = tmp.resolve("archive");
        Launched collector = launch("collector", "--port", "0", "--out", archive.toString(), "--http", "0");
        try {
            load(collector.url() + "/#/operations");
            waiting().until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#main .empty")));
            assertThat(browser.findElement(By.id("source")).getText()).contains("nothing archived yet");
            load(collector.url() + "/#/agents");
            WebElement agents = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("agents")));
            waiting().until(d -> !agents.findElements(By.cssSelector(".empty")).isEmpty());
            assertThat(agents.getText()).contains("No agent has connected yet");

            // an agent's stream: the format's golden log, over TCP to the collector's port
            Matcher listening = Pattern.compile("collector listening on 127\\.0\\.0\\.1:(\\d+),").matcher(collector.output());
            assertThat(listening.find()).as(collector.output()).isTrue();
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(listening.group(1)))) {
                socket.getOutputStream().write(GoldenFiles.bytes("full.sonde"));
            }
            // the page refreshes itself: the agent appears with its frames, without reloading
            By frames = By.cssSelector("#agents-table tr[data-agent='" + GoldenScenarios.FULL_AGENT + "'] td[data-field=frames]");
            waiting().ignoring(StaleElementReferenceException.class).ignoring(NoSuchElementException.class)
                    .until(d -> "4".equals(d.findElement(frames).getAttribute("data-value")));
            // and its records, counted by the collector as they arrive: the golden log's 13 data records and its GAP of 4
            By records = By.cssSelector("#agents-table tr[data-agent='" + GoldenScenarios.FULL_AGENT + "'] td[data-field=records]");
            waiting().ignoring(StaleElementReferenceException.class).ignoring(NoSuchElementException.class)
                    .until(d -> "13".equals(d.findElement(records).getAttribute("data-value")));
            assertThat(browser.findElement(By.cssSelector("#agents-table tr[data-agent='" + GoldenScenarios.FULL_AGENT + "'] td[data-field=dropped]"))
                    .getAttribute("data-value")).isEqualTo("4");
            assertThat(browser.findElement(By.id("nav-agents")).isDisplayed()).isTrue();
            screenshot("agents");
            // the archive's operations, as for a recorded log (read again within seconds of growing)
            WebElement table = waiting().ignoring(TimeoutException.class).until(d -> {
                load(collector.url() + "/#/operations");
                return new WebDriverWait(d, Duration.ofSeconds(10)).until(ExpectedConditions.visibilityOfElementLocated(By.id("operations-table")));
            });
            assertThat(table.findElements(By.cssSelector("tbody tr"))).isNotEmpty();
        } finally {
            collector.process().destroy();
            if (!collector.process().waitFor(60, TimeUnit.SECONDS)) collector.process().destroyForcibly();
        }
    }
}
