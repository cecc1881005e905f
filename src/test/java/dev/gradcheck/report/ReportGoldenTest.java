package dev.gradcheck.report;

import java.io.IOException;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * Every format rendered from {@link SampleResults} must equal its golden file byte for byte. Regenerate with
 * {@code -Dgolden.update=true} (see {@link Golden}).
 */
class ReportGoldenTest {

    @Test
    void tableWithoutColor() throws IOException {
        Golden.assertMatches("report-table.txt", render(ReportFormat.TABLE, false));
    }

    @Test
    void tableWithColor() throws IOException {
        Golden.assertMatches("report-table-color.txt", render(ReportFormat.TABLE, true));
    }

    @Test
    void json() throws IOException {
        Golden.assertMatches("report.json", render(ReportFormat.JSON, false));
    }

    /** Colour is a terminal concern: the JSON must not change with it. */
    @Test
    void jsonIgnoresColor() throws IOException {
        Golden.assertMatches("report.json", render(ReportFormat.JSON, true));
    }

    @Test
    void junit() throws IOException {
        Golden.assertMatches("report-junit.xml", render(ReportFormat.JUNIT, false));
    }

    static String render(ReportFormat format, boolean color) throws IOException {
        StringWriter out = new StringWriter();
        format.renderer().render(SampleResults.all(), SampleResults.summary(), SampleResults.context(color), out);
        return out.toString();
    }
}
