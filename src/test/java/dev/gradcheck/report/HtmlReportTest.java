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
            SpecPlace place = SpecPlace.of(r.location());
            assertTrue(page.contains("<a href=\"" + place.file() + "#L" + place.line() + "\">" + r.location()
                    + "</a>"), "linked to its file and line: " + r.location());
        }
        assertFalse(page.contains("<script"), "no script");
        assertFalse(page.matches("(?s).*(src|href)=\"(https?:)?//.*"), "no external resource");
        assertTrue(page.startsWith("<!DOCTYPE html>") && page.endsWith("</html>\n"));
        assertTrue(page.contains("<p class=\"summary bad\">15 checks: 3 passed, 4 failed"), "the summary line");
    }

    /** Issue 26: the checks that set the exit code come first, each group in run order. */
    @Test
    void unexpectedResultsComeFirst() throws IOException {
        String page = render();
        List<String> ids = new ArrayList<>();
        Matcher m = Pattern.compile("<tr id=\"check-(\\d+)\"").matcher(page);
        while (m.find()) {
            ids.add(m.group(1));
        }
        List<CheckResult> all = SampleResults.all();
        List<String> expected = new ArrayList<>();
        for (boolean attention : new boolean[] {true, false}) {
            for (int i = 0; i < all.size(); i++) {
                if (all.get(i).status().needsAttention() == attention) {
                    expected.add(Integer.toString(i));
                }
            }
        }
        assertEquals(expected, ids);
        assertEquals("2", ids.get(0), "softmax-rows, the first failure");
    }

    /** A choice per status present, and one for the unexpected results; the CSS hides the others' rows. */
    @Test
    void theFilterOffersEveryStatusPresentWithItsCount() throws IOException {
        String page = render();
        assertTrue(page.contains("<input type=\"radio\" name=\"show\" id=\"show-all\" checked=\"checked\"/>"
                + "<label for=\"show-all\">all (15)</label>"), page);
        assertTrue(page.contains("<label for=\"show-unexpected\">unexpected (9)</label>"), page);
        assertTrue(page.contains("<label for=\"show-failed\">FAILED (4)</label>"), page);
        assertTrue(page.contains("#show-failed:checked ~ table tbody tr:not(.st-failed) { display: none; }"), page);
        assertTrue(page.contains("<tr id=\"check-2\" class=\"st-failed bad unexpected\">"), page);
        assertTrue(page.contains("<tr class=\"details st-failed bad unexpected\">"), "details follow their row");
    }

    /** Each map has its indices along both axes and a colour scale with its end values. */
    @Test
    void heatMapsHaveAxesAndAColourScale() throws IOException {
        String page = render();
        assertEquals(3, count(page, "<g class=\"axis rows\""), page);
        assertEquals(3, count(page, "<g class=\"axis cols\""), page);
        assertEquals(3, count(page, "<linearGradient id=\"scale-2-0-"), "one scale a map, ids unique");
        assertTrue(page.contains(">0</text>") && page.contains(">3</text>"), "indices 0 to 3 of the 4 x 4 block");
        assertTrue(page.matches("(?s).*>-\\d\\.\\d\\de[+-]\\d+</text>.*"), "a side's scale from -max to +max");
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
