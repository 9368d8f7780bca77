package io.sonde.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sonde.agent.testing.AgentJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.ElementNotInteractableException;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The live pages end to end in a real headless Chromium: an application runs with the agent and
 * {@code observe=on} (its method probes write a log), {@code sonde dashboard --observe} watches it
 * in its own JVM, and the browser shows the live tree with values that change, refuses a wrong
 * token on the probes page, and switches a probe off (its records stop in the log). Screenshots go
 * to {@code target/screenshots/} ({@code live.png}, {@code probes-refused.png}, {@code probes.png},
 * {@code live-demo.png}, and the collector's {@code live-collector.png} and {@code operations-live.png}).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LiveDashboardBrowserTest {
    private static final Pattern ENDPOINT = Pattern.compile("sonde-agent: observe endpoint on (127\\.0\\.0\\.1:\\d+), token in (\\S+)");
    private static final String APP = "io.sonde.cli.testapp.LoopApp";
    private static final String TICK = APP + "$Ticker.tick";
    private static final String MARK = APP + "$Ticker.mark";

    @TempDir
    Path dir;

    private AgentJvm app;
    private Process dashboard;
    private ChromeDriver browser;

    @AfterEach
    void stop() throws Exception {
        if (browser != null) browser.quit();
        if (dashboard != null) {
            dashboard.destroy();
            if (!dashboard.waitFor(30, TimeUnit.SECONDS)) dashboard.destroyForcibly();
        }
        if (app != null) app.close();
    }

    /**
     * Opens a node of the live tree with the keyboard. The tree is drawn again as objects come and go, so the element
     * may go stale or be between two drawings (not yet interactable, seen on a loaded machine): both are tried again.
     */
    private void open(String object) {
        waiting(30).ignoring(StaleElementReferenceException.class).ignoring(ElementNotInteractableException.class).until(d -> {
            WebElement details = d.findElement(By.cssSelector("details[data-object='" + object + "']"));
            if (details.getAttribute("open") == null) details.findElement(By.tagName("summary")).sendKeys(Keys.ENTER);
            return d.findElement(By.cssSelector("details[data-object='" + object + "']")).getAttribute("open") != null;
        });
    }

    private WebDriverWait waiting(int seconds) {
        WebDriverWait w = new WebDriverWait(browser, Duration.ofSeconds(seconds));
        w.withMessage(() -> "the page at " + browser.getCurrentUrl() + " shows: " + browser.findElement(By.tagName("body")).getText());
        return w;
    }

    private void screenshot(String name) throws Exception {
        Files.createDirectories(DashboardBrowserTest.SCREENSHOTS);
        Files.write(DashboardBrowserTest.SCREENSHOTS.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
    }

    private String valueOf(String path) {
        return browser.findElement(By.cssSelector("tr[data-path='" + path + "'] td[data-field=value]")).getAttribute("data-value");
    }

    private void mark(int n) throws Exception {
        app.send("mark");
        app.awaitLine("marked " + n);
    }

    @Test
    void liveTreeChangesWrongTokenIsRefusedAndAProbeSwitchedOffStopsItsRecords() throws Exception {
        String missing = Chromium.ensureInstalled();
        Assumptions.assumeTrue(missing == null, missing);
        assertThat(AgentJvm.AGENT_JAR).as("the agent jar (built by sonde-agent's package phase)").isRegularFile();
        app = AgentJvm.start("observe=on,observe.port=0,file.dir=" + dir + ",include=" + APP + "$Ticker.*,flush.interval.ms=20",
                "target/test-classes", APP);
        app.awaitLine("ready");
        Matcher m = awaitEndpoint();
        String address = m.group(1);
        Path tokenFile = Path.of(m.group(2));

        DashboardBrowserTest.Launched l = DashboardBrowserTest.launch("dashboard", "--observe", address, "--token-file", tokenFile.toString(), "--port", "0");
        dashboard = l.process();
        assertThat(l.output()).contains("watching " + address);
        browser = Chromium.start();

        // the live page is the start page of a dashboard without a log: the tree, then a value that changes
        browser.get(l.url() + "/");
        waiting(90).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("details[data-object='jvm/process']")));
        waiting(60).until(d -> !valueOf("jvm/threads/count").isEmpty());
        assertThat(Long.parseLong(valueOf("jvm/threads/count"))).isPositive();
        String cpu = valueOf("jvm/process/cpuTime");
        waiting(60).withMessage(() -> "jvm/process/cpuTime stayed at " + cpu).until(d -> !valueOf("jvm/process/cpuTime").equals(cpu));
        assertThat(browser.findElement(By.id("live-status")).getText()).contains(address, "periodic delivery every 1 s");
        waiting(30).until(ExpectedConditions.presenceOfElementLocated(By.id("chart-threads")));
        // open jvm/memory with the keyboard for the screenshot
        open("jvm/memory");
        waiting(30).until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("tr[data-path='jvm/memory/heapUsed']")));
        Thread.sleep(2500); // a few deliveries, so the sparklines and charts have lines
        browser.executeScript("window.scrollTo(0, 0)");
        screenshot("live");

        // the probes page: a wrong token is refused and changes nothing; the right one switches the probe off
        switchTicksOffFromTheProbesPage(l.url(), tokenFile, address, true);

        List<List<String>> between = AgentCommandsTest.betweenMarks(dir);
        assertThat(between.get(0)).as("before mark 1").contains("tick");
        assertThat(between.get(1)).as("between marks 1 and 2: the wrong token switched nothing").contains("tick");
        assertThat(between.get(3)).as("between marks 3 and 4: switched off from the page").isEmpty();
    }

    /**
     * Against {@code ./sonde demo --live} (the README's command): the shop's objects are in the tree
     * and a stock level changes while the shop runs; the demo has no agent, so switching probes is
     * answered with why, and suspending the shop's sensors works with its token.
     */
    @Test
    void liveDemoIsWatchedAndItsSensorsSuspendedFromThePages() throws Exception {
        String missing = Chromium.ensureInstalled();
        Assumptions.assumeTrue(missing == null, missing);
        Path out = dir.resolve("demo");
        app = AgentJvm.start((String) null, System.getProperty("java.class.path"), "io.sonde.cli.SondeCommand",
                "demo", "--live", "--seconds", "120", "--observe-port", "0", "--threads", "2", "--out", out.toString());
        Matcher m = Pattern.compile("observe endpoint on (127\\.0\\.0\\.1:\\d+), token in (\\S+)")
                .matcher(app.awaitLine("observe endpoint on 127.0.0.1:"));
        assertThat(m.find()).isTrue();
        String address = m.group(1);
        Path tokenFile = Path.of(m.group(2));
        DashboardBrowserTest.Launched l = DashboardBrowserTest.launch("dashboard", "--observe", address, "--token-file", tokenFile.toString(), "--port", "0");
        dashboard = l.process();
        browser = Chromium.start();

        browser.get(l.url() + "/#/live?agent=" + address);
        waiting(90).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("details[data-object='shop/stock']")));
        assertThat(browser.findElements(By.cssSelector("details[data-object^='shop/orders/']"))).as("orders in the tree").isNotEmpty();
        waiting(60).until(d -> !valueOf("shop/stock/apple/level").isEmpty());
        String level = valueOf("shop/stock/apple/level");
        waiting(60).withMessage(() -> "shop/stock/apple/level stayed at " + level).until(d -> !valueOf("shop/stock/apple/level").equals(level));
        // open the shop and its stock with the keyboard (the tree is drawn again as orders come and go: an element may go stale)
        for (String object : List.of("shop", "shop/stock", "shop/stock/apple", "shop/stock/pear", "shop/workers", "shop/workers/0")) {
            open(object);
        }
        waiting(30).until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("tr[data-path='shop/stock/apple/level']")));
        Thread.sleep(2500); // a few deliveries for the sparklines and charts
        browser.executeScript("window.scrollTo(0, document.getElementById('live-tree').offsetTop - 60)"); // the tree, below the charts
        screenshot("live-demo");

        browser.get("about:blank");
        browser.get(l.url() + "/#/probes");
        WebElement token = waiting(90).until(ExpectedConditions.visibilityOfElementLocated(By.id("probes-token")));
        token.sendKeys(Files.readString(tokenFile).strip());
        browser.findElement(By.id("probe-pattern")).sendKeys("demo.*");
        browser.findElement(By.id("probes-off")).click();
        assertThat(waiting(60).until(ExpectedConditions.visibilityOfElementLocated(By.id("probes-refused"))).getText())
                .contains("has no method probes to switch (no Sonde agent in that process)");
        browser.findElement(By.id("sensor-pattern")).sendKeys("shop/**");
        browser.findElement(By.id("sensors-suspend")).click();
        assertThat(waiting(60).until(ExpectedConditions.visibilityOfElementLocated(By.id("probes-ok"))).getText())
                .matches("suspend shop/\\*\\*: [1-9]\\d* sensor\\(s\\) changed");
    }

    /**
     * The collector's dashboard ({@code sonde collector --http --observe-port --agent-token-file}):
     * an application with the agent sends its records to the collector and announces its observe
     * endpoint; the live page reaches it through the collector's relay, values change, a wrong
     * collector token is refused on the probes page, and the right one switches a probe off: its
     * records stop in the collector's archive.
     */
    @Test
    void theCollectorsDashboardWatchesAnAgentThroughTheRelay() throws Exception {
        String missing = Chromium.ensureInstalled();
        Assumptions.assumeTrue(missing == null, missing);
        assertThat(AgentJvm.AGENT_JAR).as("the agent jar (built by sonde-agent's package phase)").isRegularFile();
        Path token = ownerOnly(dir.resolve("collector.token"), "dashboard-collector-s3cret");
        Path agentToken = ownerOnly(dir.resolve("observe.token"), "dashboard-agents-s3cret");
        Path archive = dir.resolve("archive");
        DashboardBrowserTest.Launched l = DashboardBrowserTest.launch("collector", "--port", "0", "--out", archive.toString(),
                "--token-file", token.toString(), "--http", "0", "--observe-port", "0", "--agent-token-file", agentToken.toString());
        dashboard = l.process();
        assertThat(l.output()).contains("(live pages through the relay)");
        Matcher listening = Pattern.compile("collector listening on 127\\.0\\.0\\.1:(\\d+)").matcher(l.output());
        assertThat(listening.find()).as(l.output()).isTrue();
        app = AgentJvm.start("observe=on,observe.port=0,observe.token.file=" + agentToken + ",writer=tcp,tcp.port=" + listening.group(1)
                + ",tcp.token.file=" + token + ",policy=block-forever,include=" + APP + "$Ticker.*,flush.interval.ms=20",
                "target/test-classes", APP);
        app.awaitLine("ready");
        browser = Chromium.start();

        // the agent appears once it announced its endpoint; its tree comes through the relay
        browser.get(l.url() + "/#/live");
        waiting(90).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("details[data-object='jvm/process']")));
        waiting(60).until(d -> !valueOf("jvm/process/cpuTime").isEmpty());
        String cpu = valueOf("jvm/process/cpuTime");
        waiting(60).withMessage(() -> "jvm/process/cpuTime stayed at " + cpu).until(d -> !valueOf("jvm/process/cpuTime").equals(cpu));
        screenshot("live-collector");

        // the operations page's live range: tick's rate rises above 0 and changes while the application runs
        browser.get("about:blank");
        browser.get(l.url() + "/#/operations?range=live&last=60");
        waiting(90).until(d -> liveField(".tick", "rate") > 0);
        double rate = liveField(".tick", "rate");
        waiting(60).withMessage(() -> "tick's live rate stayed at " + rate).until(d -> liveField(".tick", "rate") != rate);
        waiting(30).until(ExpectedConditions.presenceOfElementLocated(By.id("live-latency-chart")));
        assertThat(browser.getCurrentUrl()).as("the address keeps the range").contains("range=live", "last=60");
        screenshot("operations-live");

        switchTicksOffFromTheProbesPage(l.url(), token, "", false);

        // the agent closed after its last frames were acknowledged, i.e. archived
        List<List<String>> between = AgentCommandsTest.betweenMarks(archive);
        assertThat(between).as("marks in the collector's archive").hasSize(5);
        assertThat(between.get(0)).as("before mark 1").contains("tick");
        assertThat(between.get(1)).as("between marks 1 and 2: the wrong token switched nothing").contains("tick");
        assertThat(between.get(3)).as("between marks 3 and 4: switched off from the collector's page").isEmpty();

        // the live range's counts over the whole run (15 min hold it) are the archive's: 4 marks, and a call per tick
        // ENTER and EXIT (a tick switched off while it ran may have one without the other: it is no call)
        long[] ticks = entersAndExits(archive, ".tick");
        long[] marks = entersAndExits(archive, ".mark");
        assertThat(marks).containsExactly(4, 4);
        browser.get("about:blank");
        browser.get(l.url() + "/#/operations?range=live&last=900");
        waiting(60).withMessage(() -> "live calls of mark and tick: " + liveField(".mark", "calls") + ", " + liveField(".tick", "calls")
                + "; archive: 4 marks, " + ticks[0] + " tick ENTERs and " + ticks[1] + " EXITs; page: "
                + browser.findElement(By.tagName("body")).getText())
                .until(d -> liveField(".mark", "calls") == 4 && liveField(".tick", "calls") == Math.min(ticks[0], ticks[1]));
        assertThat(browser.findElement(By.id("live-operations-status")).getAttribute("data-late")).as("no execution came too late").isEqualTo("0");
        assertThat(liveField(".tick", "errors")).isZero();
    }

    /** A number of the live operations table's row whose operation ends with {@code suffix}, or -1 while it shows none. */
    private double liveField(String suffix, String field) {
        try {
            List<WebElement> cells = browser.findElements(By.cssSelector("#live-operations-table tr[data-operation$='" + suffix + "'] td[data-field=" + field + "]"));
            return cells.isEmpty() || cells.get(0).getAttribute("data-value").isEmpty() ? -1 : Double.parseDouble(cells.get(0).getAttribute("data-value"));
        } catch (StaleElementReferenceException e) {
            return -1; // redrawn while read
        }
    }

    /** The ENTER and EXIT records (of every kind) of the probes whose name ends with {@code suffix}, read with the format's reader. */
    private static long[] entersAndExits(Path archive, String suffix) throws java.io.IOException {
        long[] n = new long[2];
        try (io.sonde.format.read.SondeReader r = io.sonde.format.read.SondeLogs.scan(archive).get(0).open()) {
            while (r.next()) {
                byte t = r.type();
                boolean enter = t == io.sonde.format.Format.ENTER || t == io.sonde.format.Format.ENTER_CPU;
                boolean exit = t == io.sonde.format.Format.EXIT || t == io.sonde.format.Format.EXIT_EXCEPTION || t == io.sonde.format.Format.EXIT_CPU
                        || t == io.sonde.format.Format.EXIT_EXCEPTION_CPU;
                if ((enter || exit) && r.probeName().endsWith(suffix)) n[enter ? 0 : 1]++;
            }
        }
        return n;
    }

    /**
     * On the probes page: the list shows the agent's real probes ({@code Ticker.tick} and
     * {@code Ticker.mark}, on, as configured); {@code *.tick} switched off with a wrong token (refused
     * by {@code refusedBy}: nothing changes, the list still shows it on), marks 1 and 2, then with the
     * token of {@code tokenFile} (switched off: the list shows it off, switched at run time), marks 3
     * and 4; then the application stops. The log between the marks shows what each did.
     */
    private void switchTicksOffFromTheProbesPage(String url, Path tokenFile, String refusedBy, boolean screenshots) throws Exception {
        browser.get("about:blank");
        browser.get(url + "/#/probes");
        WebElement token = waiting(90).until(ExpectedConditions.visibilityOfElementLocated(By.id("probes-token")));
        assertThat(browser.findElement(By.id("probes-who")).getText()).contains(tokenFile.toString());
        waiting(60).until(d -> "on".equals(probeField(TICK, "state")));
        assertThat(probeField(TICK, "origin")).isEqualTo("configured");
        assertThat(probeField(MARK, "state")).isEqualTo("on");
        assertThat(browser.findElement(By.id("probe-list-state")).getText()).isEqualTo("1–2 of 2 probe(s) matching *.");
        browser.findElement(By.id("probe-pattern")).sendKeys("*.tick");
        token.sendKeys("not-the-token");
        browser.findElement(By.id("probes-off")).click();
        WebElement refused = waiting(60).until(ExpectedConditions.visibilityOfElementLocated(By.id("probes-refused")));
        assertThat(refused.getText()).startsWith("token refused by " + refusedBy).contains("nothing was changed");
        if (screenshots) screenshot("probes-refused");
        assertThat(probeField(TICK, "state")).as("the wrong token switched nothing").isEqualTo("on");
        mark(1);
        Thread.sleep(300);
        mark(2);

        token.clear();
        token.sendKeys(Files.readString(tokenFile).strip());
        browser.findElement(By.id("probes-off")).click();
        WebElement ok = waiting(60).until(ExpectedConditions.visibilityOfElementLocated(By.id("probes-ok")));
        assertThat(ok.getText()).isEqualTo("probes-off *.tick: 1 method probe(s) changed");
        waiting(60).until(d -> "off".equals(probeField(TICK, "state")));
        assertThat(probeField(TICK, "origin")).isEqualTo("switched");
        assertThat(probeField(TICK, "detail")).isEqualTo("switched off at run time by pattern '*.tick'");
        assertThat(probeField(MARK, "state")).as("only the matching probe").isEqualTo("on");
        if (screenshots) screenshot("probes");
        Thread.sleep(1000); // in effect within a second
        mark(3);
        Thread.sleep(300);
        mark(4);
        app.send("stop");
        app.awaitLine("done");
        assertThat(app.awaitExit()).isZero();
    }

    /**
     * A field (state, origin, detail) of a probe in the probes page's list, or null while the list
     * does not show that probe; a list redrawn while read counts as not shown yet.
     */
    private String probeField(String name, String field) {
        try {
            List<WebElement> cells = browser.findElements(By.cssSelector("#probe-list tr[data-name='" + name + "'] td[data-field=" + field + "]"));
            return cells.isEmpty() ? null : cells.get(0).getText();
        } catch (StaleElementReferenceException e) {
            return null;
        }
    }

    private static Path ownerOnly(Path f, String content) throws java.io.IOException {
        Files.createFile(f, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        Files.writeString(f, content + "\n");
        return f;
    }

    private Matcher awaitEndpoint() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            Matcher m = ENDPOINT.matcher(app.stderr());
            if (m.find()) return m;
            Thread.sleep(50);
        }
        throw new AssertionError("the agent did not print its observe endpoint:\n" + app.stderr());
    }
}
