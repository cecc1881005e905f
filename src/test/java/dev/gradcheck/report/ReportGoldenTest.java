package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckKind;
import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

    @Test
    void github() throws IOException {
        Golden.assertMatches("report-github.txt", render(ReportFormat.GITHUB, false));
    }

    /** On an 80-column terminal: names shortened with …, detail lines wrapped, nothing wider than 80. */
    @Test
    void tableOnAnEightyColumnTerminal() throws IOException {
        StringWriter out = new StringWriter();
        new TableRenderer().render(SampleResults.all(), SampleResults.summary(),
                SampleResults.context(false).withColumns(80), out);
        Golden.assertMatches("report-table-80.txt", out.toString());
        // allMatch holds for no lines, and with -Dgolden.update=true nothing else looks at the table
        assertTrue(out.toString().lines().count() > SampleResults.all().size(), "a row per result: " + out);
        assertTrue(out.toString().lines().allMatch(l -> l.codePointCount(0, l.length()) <= 80), out.toString());
    }

    /**
     * Narrow terminals: at 60 columns ABS ERR is left out, at 48 DTYPE and OP too (the least needed columns go
     * first); the rest keeps its order, every line fits, detail lines and the summary wrap.
     */
    @ParameterizedTest
    @ValueSource(ints = {60, 48})
    void tableOnANarrowTerminal(int columns) throws IOException {
        String table = renderAt(columns, false);
        Golden.assertMatches("report-table-" + columns + ".txt", table);
        assertTrue(table.lines().count() > SampleResults.all().size(), "a row per result: " + table);
        assertTrue(table.lines().allMatch(l -> l.codePointCount(0, l.length()) <= columns), table);
    }

    /** Colour wraps the status text only: without its escape codes, a coloured narrow table is the plain one. */
    @ParameterizedTest
    @ValueSource(ints = {80, 60, 48})
    void colourDoesNotCountTowardsTheWidth(int columns) throws IOException {
        String coloured = renderAt(columns, true);
        assertTrue(coloured.contains("\u001B["), "the statuses are coloured");
        assertEquals(renderAt(columns, false), coloured.replaceAll("\u001B\\[[0-9;]*m", ""));
    }

    private static String renderAt(int columns, boolean color) throws IOException {
        StringWriter out = new StringWriter();
        new TableRenderer().render(SampleResults.all(), SampleResults.summary(),
                SampleResults.context(color).withColumns(columns), out);
        return out.toString();
    }

    /**
     * The live table: widths planned from the specs before any check ran (names, ops, dtypes, the block names
     * their inputs give), rows written as they come; a cell wider than planned pushes its row right.
     */
    @Test
    void tableWithPlannedWidths() throws IOException {
        List<String[]> planned = SampleResults.all().stream().map(r -> TableRenderer.plannedCells(r.name(),
                r.backend(), r.op(), r.dtype(), TableRenderer.widestBlockName(List.of("0"), List.of("x", "w"),
                        CheckKind.JACOBIAN, 1), false)).toList(); // the samples hold every status
        StringWriter out = new StringWriter();
        TableStream table = new TableStream(TableLayout.of(planned, 0), SampleResults.context(false), out);
        for (var r : SampleResults.all()) {
            table.row(r);
        }
        table.finish(SampleResults.summary(), SampleResults.context(false));
        Golden.assertMatches("report-table-planned.txt", out.toString());
    }

    static String render(ReportFormat format, boolean color) throws IOException {
        StringWriter out = new StringWriter();
        format.renderer().render(SampleResults.all(), SampleResults.summary(), SampleResults.context(color), out);
        return out.toString();
    }
}
