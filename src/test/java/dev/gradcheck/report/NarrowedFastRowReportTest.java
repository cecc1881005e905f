package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Summary;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.result.WorstElement;
import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A fast row that narrowing named entries for (check/fast NarrowedRow) carries them in every format: the table's
 * detail line names the worst entry with both values and counts them, JSON has them as {@code worst} and
 * {@code mismatches}, JUnit's failure message names the worst; a fast row not narrowed still shows v'Ju.
 */
class NarrowedFastRowReportTest {

    private static final WorstElement ENTRY = new WorstElement(new long[] {0, 3, 46, 23}, new long[] {0, 44, 46, 23},
            -1.40377, -0.935846);

    private static CheckResult narrowed() {
        GradientResult row = new GradientResult("0", "x", CheckKind.FAST, 1, Verdict.MISMATCH, 0.467924, 0.5,
                4.7e5, ENTRY, 126, 12.2, "fast mode mismatch (v'Ju analytic 0.0097078, numerical 0.0097080);"
                + " narrowed by halving u's and v's supports, with fresh random weights per half (56 halves tested,"
                + " 29 backward passes, 76 forward evaluations): at least 1 entry mismatches judged alone:"
                + " out[0, 3, 46, 23] / x[0, 44, 46, 23] analytic -1.40377, numerical -0.935846; not rechecked in full",
                null, new Mismatches(1, 1, 0, null, List.of(ENTRY), null, null), null);
        GradientResult plain = new GradientResult("0", "w", CheckKind.FAST, 1, Verdict.MISMATCH, 0.1, 0.1, 30.0,
                new WorstElement(new long[0], new long[0], 0.7, 0.6), 3, 0.2, null, null);
        return new CheckResult("resnet-layer", "specs/resnet.yaml:1:1", "conv2d", "cpu", "float64", Status.FAILED,
                "pass", null, null, List.of(row, plain), "max_relative_error=1.0E-6", 1.0e-6, 25.8);
    }

    private static String render(ReportFormat format) throws IOException {
        List<CheckResult> results = List.of(narrowed());
        StringWriter out = new StringWriter();
        format.renderer().render(results, Summary.of(results, 25.8, ExitCode.of(results)),
                SampleResults.context(false), out);
        return out.toString();
    }

    @Test
    void theTableNamesTheEntryWithBothValuesAndStillShowsAPlainProjection() throws IOException {
        String table = render(ReportFormat.TABLE);
        assertTrue(table.contains("fast d0/dx: mismatch, max rel err 5.00e-01, max abs err 4.68e-01 (tolerance"
                + " max_relative_error=1.0E-6), worst at out[0, 3, 46, 23] / x[0, 44, 46, 23]: analytic -1.40377,"
                + " numerical -0.935846"), table);
        assertTrue(table.contains("1 / 1 entries mismatch"), table);
        assertTrue(table.contains("fast d0/dw: mismatch, v'Ju analytic 0.7, numerical 0.6"), table);
    }

    @Test
    void jsonCarriesTheEntryAsWorstAndMismatches() throws Exception {
        String json = render(ReportFormat.JSON);
        var root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        var row = root.get("checks").get(0).get("gradients").get(0);
        assertEquals("fast", row.get("kind").asText());
        assertEquals("[0,44,46,23]", row.get("worst").get("input_index").toString(), row.toString());
        assertEquals(-1.40377, row.get("worst").get("analytic").asDouble());
        assertEquals(1, row.get("mismatches").get("count").asInt());
        assertEquals(-0.935846, row.get("mismatches").get("worst").get(0).get("numerical").asDouble());
        assertTrue(row.get("note").asText().contains("at least 1 entry mismatches"), row.toString());
    }

    @Test
    void junitsFailureNamesTheEntry() throws IOException {
        String xml = render(ReportFormat.JUNIT);
        assertTrue(xml.contains("worst at out[0, 3, 46, 23] / x[0, 44, 46, 23]: analytic -1.40377"), xml);
    }
}
