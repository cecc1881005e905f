package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code --format html}: the sample batch, one failing block of which came back with its matrices, against a golden
 * page with the times masked; and what the page must hold whatever its looks.
 */
class HtmlReportTest {

    private static final Pattern TIME = Pattern.compile("<span class=\"time\">[^<]*</span>");

    /** The sample batch; softmax-rows' failing block d0/dw carries a 4 x 4 pair of matrices with one mismatch. */
    static List<CheckResult> results() {
        List<CheckResult> all = new ArrayList<>(SampleResults.all());
        for (int i = 0; i < all.size(); i++) {
            CheckResult r = all.get(i);
            if (r.name().equals("softmax-rows")) {
                List<GradientResult> rows = new ArrayList<>(r.gradients());
                GradientResult w = rows.get(1);
                GradientResult drawn = BlockPictureTest.block(4, 2, 1);
                rows.set(1, w.withDiagnosis(w.mismatches(), drawn.jacobians()));
                all.set(i, new CheckResult(r.name(), r.location(), r.op(), r.backend(), r.dtype(), r.status(),
                        r.expected(), r.reason(), r.message(), rows, r.tolerance(), r.delta(), r.seconds(),
                        r.nodes(), r.crossBackend(), r.defaultedAttributes()));
            }
        }
        return all;
    }

    static String render() throws IOException {
        StringWriter out = new StringWriter();
        ReportFormat.HTML.renderer().render(results(), SampleResults.summary(), SampleResults.context(false), out);
        return out.toString();
    }

    @Test
    void thePageMatchesItsGoldenWithTimesMasked() throws IOException {
        Golden.assertMatches("report.html", TIME.matcher(render()).replaceAll("<span class=\"time\">#</span>"));
    }

    @Test
    void theFailingBlockWithMatricesGetsThreeMapsAndItsMismatchIsOutlined() throws IOException {
        String page = render();
        assertEquals(3, count(page, "<svg "), "numerical, analytic, difference of the one block with matrices");
        assertEquals(1, count(page, "stroke=\"#000\""), "one mismatching entry, outlined in the difference map");
        assertTrue(page.contains("(mismatch)</title>"), "hovering the wrong entry says so");
        assertTrue(page.contains("<a href=\"#check-2\">softmax-rows</a> d0/dw"), "the block links to its row");
        assertTrue(page.contains("6 / 16 entries mismatch"), "the mismatch count and pattern above the maps");
    }

    @Test
    void everyCheckHasARowAndThePageNeedsNothingFromOutside() throws IOException {
        String page = render();
        for (CheckResult r : SampleResults.all()) {
            assertTrue(page.contains(">" + HtmlRenderer.esc(r.name()) + "</td>"), r.name());
        }
        assertFalse(page.contains("<script"), "no script");
        assertFalse(page.matches("(?s).*(src|href)=\"(https?:)?//.*"), "no external resource");
        assertTrue(page.startsWith("<!DOCTYPE html>") && page.endsWith("</html>\n"));
        assertTrue(page.contains("<p class=\"summary bad\">15 checks: 3 passed, 4 failed"), "the summary line");
    }

    @Test
    void textFromSpecsIsEscaped() {
        assertEquals("a &lt;b&gt; &amp; &quot;c&quot;", HtmlRenderer.esc("a <b> & \"c\""));
    }

    private static int count(String s, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(s);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
