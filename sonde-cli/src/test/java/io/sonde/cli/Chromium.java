package io.sonde.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium and chromedriver for the end-to-end tests: installed with apt-get
 * when missing (the tests run as root on the build machines), then driven through Selenium with
 * the local driver (Selenium Manager never downloads anything).
 */
final class Chromium {
    static final Path BROWSER = Path.of("/usr/bin/chromium");
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");
    /** The real binary behind Debian's wrapper script, which chromedriver drives best directly. */
    static final Path BINARY = Path.of("/usr/lib/chromium/chromium");

    private Chromium() {}

    /**
     * Makes sure chromium and chromedriver are installed.
     *
     * @return null when they are, else why they could not be installed
     */
    static synchronized String ensureInstalled() {
        if (Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER)) return null;
        StringBuilder log = new StringBuilder();
        if (!run(log, "apt-get", "install", "-y", "-q", "chromium", "chromium-driver")) {
            run(log, "apt-get", "update", "-q");
            run(log, "apt-get", "install", "-y", "-q", "chromium", "chromium-driver");
        }
        if (Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER)) return null;
        String tail = log.length() > 2000 ? log.substring(log.length() - 2000) : log.toString();
        return "chromium and chromium-driver are not installed and apt-get could not install them (needs root and the Debian archive): " + tail;
    }

    private static boolean run(StringBuilder log, String... cmd) {
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            pb.environment().put("DEBIAN_FRONTEND", "noninteractive");
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            log.append(String.join(" ", cmd)).append(":\n").append(new String(out, StandardCharsets.UTF_8));
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            log.append(String.join(" ", cmd)).append(": ").append(e.getMessage()).append('\n');
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A headless browser with a fixed window size, so screenshots are comparable between runs. */
    static ChromeDriver start() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary((Files.isExecutable(BINARY) ? BINARY : BROWSER).toString());
        options.addArguments(List.of("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--force-device-scale-factor=1", "--no-first-run", "--hide-scrollbars"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60)).scriptTimeout(Duration.ofSeconds(60));
        return driver;
    }
}
