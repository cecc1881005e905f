package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.Summary;
import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Properties of the table that a golden diff would show but not explain. */
class TableRendererTest {

    private static final String ESC = "\u001b[";

    @Test
    void noColorMeansNoEscapeCodes() throws IOException {
        assertFalse(ReportGoldenTest.render(ReportFormat.TABLE, false).contains(ESC));
    }

    @Test
    void colorDoesNotShiftColumns() throws IOException {
        String colored = ReportGoldenTest.render(ReportFormat.TABLE, true);
        assertTrue(colored.contains(ESC + "31mFAILED" + ESC + "0m"));
        assertEquals(ReportGoldenTest.render(ReportFormat.TABLE, false), colored.replaceAll("\u001b\\[\\d+m", ""));
    }

    @Test
    void rowsAreAlignedAndCarryNoTrailingBlanks() throws IOException {
        List<String> rows = ReportGoldenTest.render(ReportFormat.TABLE, false).lines()
                .takeWhile(l -> !l.isEmpty())
                .filter(l -> !l.startsWith(" "))
                .toList();
        assertEquals(SampleResults.all().size() + 1, rows.size(), "header plus one row per check");
        int specColumn = rows.get(0).indexOf("SPEC");
        int width = rows.get(0).length();
        for (String row : rows) {
            assertEquals(width, row.length(), row);
            assertEquals(' ', row.charAt(specColumn - 1), row);
            assertFalse(row.endsWith(" "), row);
        }
    }

    @Test
    void detailsExplainWhatNeedsAttention() throws IOException {
        String table = ReportGoldenTest.render(ReportFormat.TABLE, false);
        assertTrue(table.contains("\n  d0/dw: mismatch, max rel err 2.00e-01, max abs err 2.50e-01 "
                + "(tolerance max_relative_error=1e-06), worst at out[1, 2] / w[0, 3]: analytic 0.5, numerical 0.25\n"));
        assertTrue(table.contains("\n  dy/dbias: zero-gradient, analytic gradient is zero but numerical is not, "
                + "e.g. y[0, 1] / bias: numerical -0.3125\n"));
        assertTrue(table.contains("\n  expected: cumsum_bp ignores reverse=true (issue 42)\n"));
        assertTrue(table.contains("\n  expected fail (cumprod_bp wrong for exclusive=true) but every gradient passed\n"));
        assertTrue(table.contains("\n  specs/bad.yaml:7:3: 'tolerance' needs a rule\n"));
        assertFalse(table.contains("d0/dx: pass"), "passing blocks get no detail line");
    }

    @Test
    void nonFiniteValuesPrintAsNanAndInf() throws IOException {
        String row = ReportGoldenTest.render(ReportFormat.TABLE, false).lines()
                .filter(l -> l.contains("log-near-zero")).findFirst().orElseThrow();
        assertTrue(row.matches(".*\\binf\\s+nan\\s+3\\.0 ms$"), row);
    }

    @Test
    void emptyBatchSaysSo() throws IOException {
        StringWriter out = new StringWriter();
        new TableRenderer().render(List.of(), Summary.of(List.of(), 0.01, 0), SampleResults.context(true), out);
        assertEquals("no specs found\n", out.toString());
    }

    /** Issue 27: a spec name cannot colour the log or hide rows; the table's own colours stay. */
    @Test
    void aNamesControlCharactersAreShownNotObeyed() throws IOException {
        var r = new dev.gradcheck.result.CheckResult("\u001b[31mred\u0001\r", "a.yaml:1:1", "tanh", "cpu", "float64",
                dev.gradcheck.result.Status.ERROR, "pass", null, "boom\u001b[2K\u001b[1A", List.of(), null, 1e-6, 0.1);
        Summary summary = Summary.of(List.of(r), 0.1, 3);
        StringWriter plain = new StringWriter();
        new TableRenderer().render(List.of(r), summary, ReportContext.plain("t"), plain);
        assertTrue(plain.toString().contains("\\u001B[31mred\\u0001\\u000D"), plain.toString());
        assertTrue(plain.toString().contains("  boom\\u001B[2K\\u001B[1A\n"), plain.toString());
        assertFalse(plain.toString().contains("\u001b"));
        StringWriter colored = new StringWriter();
        new TableRenderer().render(List.of(r), summary, new ReportContext(true, "t"), colored);
        assertEquals(plain.toString(), colored.toString().replace(ESC + "33mERROR" + ESC + "0m", "ERROR"),
                "the status's colour is the only escape sequence");
    }

    /**
     * Issue 26: the table ends with a recap of what set the exit code, above the summary line: each check that needs
     * attention, once, with its name, file:line:col and one-line reason; none of those that do not.
     */
    @Test
    void theTableEndsWithARecapOfWhatSetTheExitCode() throws IOException {
        String table = ReportGoldenTest.render(ReportFormat.TABLE, false);
        List<String> lines = table.lines().toList();
        int heading = lines.indexOf("unexpected results (exit code 3):");
        assertTrue(heading > 0, table);
        List<String> recap = lines.subList(heading + 1, lines.size() - 2);
        List<dev.gradcheck.result.CheckResult> unexpected = SampleResults.all().stream()
                .filter(r -> r.status().needsAttention()).toList();
        assertEquals(unexpected.size(), recap.size(), "one line per check that needs attention: " + recap);
        for (int i = 0; i < recap.size(); i++) {
            var r = unexpected.get(i);
            assertTrue(recap.get(i).matches(StatusLabel.of(r.status()) + " +" + java.util.regex.Pattern.quote(
                    r.name()) + " +" + java.util.regex.Pattern.quote(r.location()) + " +"
                    + java.util.regex.Pattern.quote(DetailLines.headline(r))), recap.get(i));
        }
        assertEquals("", lines.get(lines.size() - 2), "a blank line before the summary");
        assertTrue(lines.get(lines.size() - 1).startsWith("15 checks:"), "the summary stays the last line");
        assertTrue(recap.stream().noneMatch(l -> l.contains("tanh-basic") || l.contains("cumsum-reverse")),
                "passes, expected failures and skips are not in it");
    }

    @Test
    void aRunWithNothingUnexpectedAndAQuietRunHaveNoRecap() throws IOException {
        List<dev.gradcheck.result.CheckResult> fine = SampleResults.all().stream()
                .filter(r -> !r.status().needsAttention()).toList();
        StringWriter out = new StringWriter();
        new TableRenderer().render(fine, Summary.of(fine, 1, 0), SampleResults.context(false), out);
        assertFalse(out.toString().contains("unexpected results"), out.toString());
        StringWriter quiet = new StringWriter();
        new TableRenderer().render(SampleResults.all(), SampleResults.summary(),
                new ReportContext(false, "t", true), quiet);
        assertFalse(quiet.toString().contains("unexpected results"), "--quiet's rows are the recap: " + quiet);
    }

    /** Narrow: file:line:col and the reason go under the check's name, which stays whole; nothing is wider than 48. */
    @Test
    void onANarrowTerminalTheRecapKeepsNamesWholeAndPutsTheReasonBelow() throws IOException {
        StringWriter out = new StringWriter();
        new TableRenderer().render(SampleResults.all(), SampleResults.summary(),
                SampleResults.context(false).withColumns(48), out);
        List<String> lines = out.toString().lines().toList();
        int heading = lines.indexOf("unexpected results (exit code 3):");
        assertEquals("FAILED           softmax-rows", lines.get(heading + 1));
        assertTrue(lines.get(heading + 2).startsWith("  specs/softmax.yaml:1:1: d0/dw: mismatch, max"),
                lines.get(heading + 2));
        lines.forEach(l -> assertTrue(l.length() <= 48, l));
    }
}
