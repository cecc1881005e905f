package dev.gradcheck.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The table fits a terminal: the text columns give way, long cells are shortened, long lines wrapped. */
class TableLayoutTest {

    private static final String[] ROW = {"pass", "softmax-cross-entropy-loss-smoothing-sum",
        "softmax_cross_entropy_loss_with_logits", "float64", "zero-grad predictions", "1.23e-09", "3.20e-10",
        "12.3 ms"};

    @Test
    void withoutALimitNothingIsShortened() {
        TableLayout layout = TableLayout.of(List.<String[]>of(ROW), 0);
        assertTrue(layout.line(ROW, null).contains(ROW[1] + "  " + ROW[2]), layout.line(ROW, null));
        assertEquals(List.of("  " + "x ".repeat(100).strip()), layout.wrap("x ".repeat(100).strip(), "  ", "    "));
    }

    @Test
    void narrowTerminalsGetEveryLineWithinTheirWidth() {
        for (int width : new int[] {80, 100, 120}) {
            TableLayout layout = TableLayout.of(List.<String[]>of(ROW), width);
            String line = layout.line(ROW, null);
            assertTrue(line.length() <= width, width + ": " + line);
            assertTrue(line.contains("…"), line);
            assertEquals(width, layout.width(), "the room left goes to the text columns");
        }
    }

    @Test
    void belowAboutSeventyFiveColumnsTheLeastNeededColumnsGo() {
        TableLayout sixty = TableLayout.of(List.<String[]>of(ROW), 60);
        String header = sixty.header();
        assertTrue(header.length() <= 60 && sixty.line(ROW, null).length() <= 60, header);
        assertTrue(!header.contains("ABS ERR") && !header.contains("DTYPE") && header.contains("REL ERR"), header);
        assertTrue(sixty.line(ROW, null).contains("1.23e-09") && !sixty.line(ROW, null).contains("3.20e-10"),
                sixty.line(ROW, null));
        TableLayout fifty = TableLayout.of(List.<String[]>of(ROW), 50);
        assertTrue(fifty.line(ROW, null).length() <= 50, fifty.line(ROW, null));
        assertTrue(!fifty.header().contains("DTYPE") && !fifty.header().contains("TIME")
                && !fifty.header().contains("OP") && fifty.header().contains("WORST"), fifty.header());
        assertTrue(TableLayout.of(List.<String[]>of(ROW), 90).header().contains("ABS ERR"));
    }

    @Test
    void specNamesKeepTheirStartAndEnd() {
        assertEquals("softmax-cro…ng-sum", TableLayout.shortenMiddle("softmax-cross-entropy-loss-smoothing-sum", 18));
        assertEquals("zero-grad pr…", TableLayout.shortenEnd("zero-grad predictions", 13));
        assertEquals("short", TableLayout.shortenMiddle("short", 18));
    }

    /**
     * Issue 26: at 80 columns a spec name got 14 characters while TIME and ABS ERR kept theirs. Now the columns
     * that matter less go first, and a name of up to {@value TableLayout#READABLE_SPEC} characters is shown whole,
     * beside the widest status (UNEXPECTED_PASS).
     */
    @Test
    void atEightyColumnsTheSpecNameIsReadableAndLessNeededColumnsGiveWay() {
        String[] row = {"UNEXPECTED_PASS", "layer-norm-affine-rank3-last", "layer_norm", "float64", "dout/dgain",
            "1.23e-09", "3.20e-10", "1500.0 ms"};
        TableLayout eighty = TableLayout.of(List.<String[]>of(row), 80);
        String line = eighty.line(row, null);
        assertTrue(line.length() <= 80, line);
        assertTrue(line.contains("layer-norm-affine-rank3-last"), "the whole name: " + line);
        assertTrue(!eighty.header().contains("ABS ERR") && eighty.header().contains("REL ERR"), eighty.header());
        String[] cells = TableLayout.of(List.<String[]>of(ROW), 100).line(ROW, null).split("\\s{2,}");
        assertEquals(TableLayout.READABLE_SPEC, cells[1].length(), "a longer name gets the readable width: "
                + String.join("|", cells));
    }

    @Test
    void longLinesWrapAtSpacesWithAContinuationIndent() {
        TableLayout layout = TableLayout.of(List.<String[]>of(ROW), 40);
        List<String> lines = layout.wrap("d0/dw: mismatch, max rel err 2.00e-01, max abs err 2.50e-01 (tolerance"
                + " max_relative_error=1e-06)", "  ", "    ");
        assertTrue(lines.size() > 2, lines.toString());
        lines.forEach(l -> assertTrue(l.length() <= 40, l));
        assertTrue(lines.get(0).startsWith("  d0/dw:") && lines.get(1).startsWith("    "), lines.toString());
        assertEquals(String.join(" ", lines.stream().map(String::strip).toList()), "d0/dw: mismatch, max rel err"
                + " 2.00e-01, max abs err 2.50e-01 (tolerance max_relative_error=1e-06)", "no word lost");
    }
}
