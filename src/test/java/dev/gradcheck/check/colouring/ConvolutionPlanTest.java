package dev.gradcheck.check.colouring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The two-sided run's plan for 3×3 convolutions at the sizes bench/scale checks (issue 34), from the windows the
 * pattern probe guesses for them (logged at debug level as {@link WindowPattern#plan}): its backward passes and
 * stencils stay within 1.2× the structural least, a backward pass per output position of one channel (they all
 * read that channel's weights: exactly that many, {@link Colouring#tightened}) and a stencil per element of one
 * output's window in x and in w; no group holds two rows whose windows share an element. No ND4J: the plan
 * alone, so that a colouring that loses the bound fails here in seconds rather than in a 20-minute check.
 */
class ConvolutionPlanTest {

    @ParameterizedTest(name = "x [{0},{1},{2},{2}] SAME {3}")
    @CsvSource({"1, 64, 56, true", "8, 16, 32, true", "1, 16, 32, false", "1, 16, 16, false"})
    void aConvolutionsPlanReachesTheLeastRowGroupsAndIsWithinAFifthOfTheLeastPossible(int batch, int channels, int size, boolean same) {
        int out = same ? size : size - 2;
        WindowPattern p = new WindowPattern(new long[] {batch, channels, out, out}, List.of(
                new WindowPattern.Input("x", new long[] {batch, channels, size, size}, new WindowPattern.Dim[] {
                    new WindowPattern.Dim(0, 1, 0, 1), WindowPattern.Dim.whole(),
                    new WindowPattern.Dim(2, 1, same ? -1 : 0, 3), new WindowPattern.Dim(3, 1, same ? -1 : 0, 3)}),
                new WindowPattern.Input("w", new long[] {3, 3, channels, channels}, new WindowPattern.Dim[] {
                    WindowPattern.Dim.whole(), WindowPattern.Dim.whole(), WindowPattern.Dim.whole(),
                    new WindowPattern.Dim(1, 1, 0, 1)})));
        int columnsEach = 9 * channels;
        assertEquals(columnsEach, p.columnGroups(p.inputs().get(0)).length, "x's columns");
        assertEquals(columnsEach, p.columnGroups(p.inputs().get(1)).length, "w's columns");
        int leastRows = batch * out * out;
        int rows = p.rowGroups().length;
        assertEquals(leastRows, rows, "row groups: the clique of the output positions sharing a channel's weights");
        if (batch * channels * out * out < 200_000) { // 3.5 s for the ResNet layer's; ColouringTest's cases too
            assertNoGroupSharesAnElement(p);
        }
        int least = leastRows + 2 * 2 * columnsEach;
        int planned = rows + 2 * 2 * columnsEach;
        assertTrue(planned <= 1.2 * least, planned + " evaluations planned, least " + least);
        assertTrue(p.plan().startsWith(String.format(java.util.Locale.ROOT, "%,d rows in %,d groups; columns of x in"
                + " %,d groups, of w in %,d groups", batch * channels * out * out, rows, columnsEach, columnsEach)),
                p.plan());
    }

    /** Every group's rows read disjoint windows in every input: one backward pass tells their values apart. */
    static void assertNoGroupSharesAnElement(WindowPattern p) {
        BitSet seen = new BitSet();
        for (int[] group : p.rowGroups()) {
            for (WindowPattern.Input x : p.inputs()) {
                seen.clear();
                for (int row : group) {
                    WindowPattern.forEach(p.window(row, x), x.shape(), l -> {
                        if (seen.get(l)) {
                            fail(x.name() + "[" + l + "] in two rows of group " + group[0]);
                        }
                        seen.set(l);
                    });
                }
            }
        }
    }
}
