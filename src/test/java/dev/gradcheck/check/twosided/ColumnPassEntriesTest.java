package dev.gradcheck.check.twosided;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.gradcheck.check.Specs;
import dev.gradcheck.check.colouring.CompressedJacobiansTest;
import dev.gradcheck.check.jacobian.ParallelLines;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Verdict;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The column pass's entry loop ({@link ColumnPass}): a member's rows gathered into arrays, its analytic values read
 * in one loop, what the member's entries share looked up once per column, and each group handed over while the
 * helper threads evaluate the batch's next ({@link GroupBatches}; helpers forced from the first task here). On
 * layer_norm [8, 64], whose x columns share a group eight at a time (one per batch row) and whose gain columns all
 * share one, an entry off by 1.5 times what the tolerance allows, of a row and column inside such a group, fails
 * alone, named, with the dense check's verdict and score; the right backward passes.
 */
class ColumnPassEntriesTest {

    private static final String LAYER_NORM = """
            op: layer_norm
            attrs: {dimensions: [1]}
            inputs:
              x: {shape: [8, 64], init: {uniform: [-2, 2]}}
              gain: {shape: [64], init: {uniform: [0.5, 1.5]}}
              bias: {shape: [64], init: {uniform: [-1, 1]}}
            """;

    private long startAfter;

    @BeforeEach
    void helpersFromTheFirstTask() {
        startAfter = ParallelLines.startAfterNanos;
        ParallelLines.startAfterNanos = 0;
    }

    @AfterEach
    void restore() {
        ParallelLines.startAfterNanos = startAfter;
    }

    @ParameterizedTest(name = "{0}, output row {1}")
    @CsvSource({"x, 330", "x, 511", "gain, 300"})
    void anEntryOffByOneAndAHalfTolerancesInsideAGroupFailsAloneAsInDenseMode(String input, int row)
            throws Exception {
        int col = FinerStepsTest.entryBetween(LAYER_NORM, input, row, 1e-2, 10);
        CompressedJacobiansTest.Corruption off = CompressedJacobiansTest.oneElementOff(input, "0", row, col, 1.5e-6);
        TwoSidedCompression.Attempt a = TwoSidedCompressionTest.attempt(LAYER_NORM, off);
        assertNotNull(a.rows(), a.declined());
        GradientResult c = block(a, input);
        GradientResult d = CompressedJacobiansTest.jacobianRows(CompressedJacobiansTest.check(
                LAYER_NORM + "compress: false\n", off)).stream().filter(g -> g.input().equals(input)).findFirst()
                .orElseThrow();
        assertEquals(Verdict.MISMATCH, d.verdict(), "dense mode catches it");
        assertEquals(Verdict.MISMATCH, c.verdict());
        assertEquals(1, c.mismatches().count());
        assertArrayEquals(Flat.unravel(col, Specs.parse(LAYER_NORM).input(input).shape()), c.worst().inputIndex());
        assertArrayEquals(Flat.unravel(row, new long[] {8, 64}), c.worst().outputIndex());
        assertEquals(d.maxScore(), c.maxScore(), 1e-9 * d.maxScore());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"x", "gain", "bias"})
    void theRightBackwardPasses(String input) throws Exception {
        TwoSidedCompression.Attempt a = TwoSidedCompressionTest.attempt(LAYER_NORM, f -> f);
        assertNotNull(a.rows(), a.declined());
        assertEquals(Verdict.PASS, block(a, input).verdict());
    }

    private static GradientResult block(TwoSidedCompression.Attempt a, String input) {
        return a.rows().stream().filter(g -> g.input().equals(input)).findFirst().orElseThrow();
    }
}
