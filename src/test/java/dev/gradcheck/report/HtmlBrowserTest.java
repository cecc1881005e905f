package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.ExternalTool;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report opened in a real browser (Debian's headless Chromium, {@code apt-get install -y chromium}): the
 * DOM it builds holds the table and the three SVG maps, and its screenshot shows them, red and blue cells and all.
 * Skipped where Chromium is not installed (failed under CI). {@code tools/html-screenshot.sh} does the same by hand.
 */
@Tag("slow") // starts a browser
class HtmlBrowserTest {

    @TempDir
    Path dir;

    @Test
    void chromiumRendersTheTableAndTheHeatMaps() throws Exception {
        String browser = browser();
        ExternalTool.needed(browser != null, "chromium is not installed (apt-get install -y chromium)");
        Path page = Files.writeString(dir.resolve("report.html"), HtmlReportTest.render(), StandardCharsets.UTF_8);

        String dom = run(browser, "--dump-dom", page.toUri().toString());
        assertEquals(3, dom.split("<svg ", -1).length - 1, "the browser parsed three maps");
        assertTrue(dom.contains("<td class=\"status\">FAILED</td>"), "the table rows");
        assertEquals(3, dom.split("<linearGradient ", -1).length - 1, "a colour scale under each map");
        assertEquals(6, dom.split("<g class=\"axis ", -1).length - 1, "row and column indices on each map");

        Path png = dir.resolve("report.png");
        run(browser, "--screenshot=" + png, "--window-size=1200,3000", page.toUri().toString());
        BufferedImage shot = ImageIO.read(png.toFile());
        int red = 0;
        int blue = 0;
        for (int y = 0; y < shot.getHeight(); y++) {
            for (int x = 0; x < shot.getWidth(); x++) {
                int rgb = shot.getRGB(x, y);
                int r = rgb >> 16 & 0xff;
                int g = rgb >> 8 & 0xff;
                int b = rgb & 0xff;
                red += r > 200 && g < 120 && b < 120 ? 1 : 0;
                blue += b > 200 && r < 120 && g < 120 ? 1 : 0;
            }
        }
        // the sample block's diagonal is +1 (red) and its off-diagonal -0.5 (blue), in cells of 24 pixels
        assertTrue(red > 500, "red cells drawn: " + red + " pixels");
        assertTrue(blue > 100, "blue cells drawn: " + blue + " pixels");
    }

    /**
     * The filter works without a script of the page's own: the test adds one that picks a choice, as a click
     * would, and writes down which rows the browser then shows (rows hidden by CSS have no layout box).
     */
    @Test
    void choosingAStatusShowsOnlyItsRows() throws Exception {
        String browser = browser();
        ExternalTool.needed(browser != null, "chromium is not installed (apt-get install -y chromium)");
        String probe = "<script>for (const choice of ['failed', 'unexpected', 'all']) {"
                + " document.getElementById('show-' + choice).checked = true;"
                + " const shown = [...document.querySelectorAll('tbody tr[id]')].filter(r => r.offsetParent !== null)"
                + ".map(r => r.id.substring(6)).join(',');"
                + " document.body.setAttribute('data-' + choice, shown); }</script>";
        String html = HtmlReportTest.render().replace("</body>", probe + "</body>");
        Path page = Files.writeString(dir.resolve("probe.html"), html, StandardCharsets.UTF_8);
        String dom = run(browser, "--dump-dom", page.toUri().toString());
        assertTrue(dom.contains("data-failed=\"2,3,4,5\""), "the four failures: " + dom.substring(0, 2000));
        assertTrue(dom.contains("data-unexpected=\"2,3,4,5,7,8,10,11,12\""), "what set the exit code, first");
        assertTrue(dom.contains("data-all=\"2,3,4,5,7,8,10,11,12,0,1,6,9,13,14\""), "every row, unexpected first");
    }

    private String run(String browser, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(browser, "--headless", "--no-sandbox",
                "--disable-gpu", "--user-data-dir=" + dir.resolve("profile")));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium did not finish");
        assertEquals(0, p.exitValue(), "chromium failed");
        return out;
    }

    private static String browser() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
                if (Files.isExecutable(Path.of(dir, name))) {
                    return Path.of(dir, name).toString();
                }
            }
        }
        return null;
    }
}
