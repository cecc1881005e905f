package dev.gradcheck.check.twosided;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.Functions;
import dev.gradcheck.check.colouring.CompressedJacobiansTest;
import dev.gradcheck.check.colouring.CompressedJacobiansTest.Corruption;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Verdict;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The two-sided run with its analytic values held compactly ({@link CompactAnalytic}) against the same run holding
 * them exactly, and against dense full mode: the same verdicts, worst entries with their values, scores, maxima and
 * mismatch counts, right and wrong. Softmax over 1024 elements: its off-diagonal entries (~1e-6) are held as floats,
 * whose rounding (~1e-13) is as large as their two sides' disagreement, its diagonal ones exactly; an absolute
 * tolerance of 1e-10, so that an off-diagonal entry held as a float can fail.
 */
class CompactAgainstExactTest {

    static final Nd4jOpBuilder BUILDER = new Nd4jOpBuilder(OpCatalog.nd4j());

    static final String SOFTMAX = """
            op: softmax
            attrs: {dimension: 1}
            inputs:
              x: {shape: [2, 1024], init: {uniform: [-2, 2]}}
            tolerance: {atol: 1.0e-10, rtol: 1.0e-6}
            """;

    static Stream<Arguments> backwards() {
        return Stream.of(
                Arguments.of("right", (Corruption) f -> f, false),
                // an off-diagonal entry held as a float, off by 1e-5 of itself: far below the tolerance, about a
                // float's rounding of it
                Arguments.of("an off-diagonal entry off by 1e-5 of itself", CompressedJacobiansTest.oneElementOff("x",
                        "0", 5, 700, 1e-5), false),
                Arguments.of("a diagonal entry (held exactly) off by 1e-5 of itself", CompressedJacobiansTest
                        .oneElementOff("x", "0", 1500, 1500, 1e-5), true),
                // held as a float: the screen cannot let it through, and the run is taken again exactly
                Arguments.of("an off-diagonal entry off by 1% of itself", CompressedJacobiansTest.oneElementOff("x",
                        "0", 5, 700, 0.01), true),
                Arguments.of("wrong everywhere, scaled by 1 + 1e-3", (Corruption) f -> Functions.withBackward(f,
                        Functions.scaledBy(1 + 1e-3)), true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backwards")
    void compactValuesGiveTheExactRunsFigures(String name, Corruption corruption, boolean wrong) throws Exception {
        TwoSidedCompression.Attempt exact = attempt(corruption, Double.POSITIVE_INFINITY);
        TwoSidedCompression.Attempt compact = attempt(corruption, 0);
        assertEquals(exact.rows() == null, compact.rows() == null, name);
        assertEquals(exact.why(), compact.why(), name);
        if (exact.rows() == null) {
            return;
        }
        for (int k = 0; k < exact.rows().size(); k++) {
            assertSame(exact.rows().get(k), compact.rows().get(k), name);
            long e = exact.rows().get(k).evaluations();
            long c = compact.rows().get(k).evaluations();
            // a right run takes a few row groups' passes again (RowsAgain), never the whole run
            assertTrue(wrong || c < e + e / 4, name + ": " + c + " evaluations against " + e);
        }
        if (!wrong) {
            return; // a right backward's two-sided figures against dense mode's: TwoSidedCompressionTest
        }
        List<GradientResult> dense = CompressedJacobiansTest.jacobianRows(CompressedJacobiansTest.check(SOFTMAX
                + "compress: false\n", corruption));
        assertEquals(Verdict.MISMATCH, dense.get(0).verdict(), name + ": dense mode");
        assertEquals(dense.get(0).verdict(), compact.rows().get(0).verdict(), name + ": as dense mode");
        assertEquals(dense.get(0).mismatches().count(), compact.rows().get(0).mismatches().count(), name);
    }

    private static TwoSidedCompression.Attempt attempt(Corruption corruption, double compactAbove) throws Exception {
        TwoSidedCompression.Attempt a = TwoSidedCompressionTest.attempt(SOFTMAX, (spec, inputs) -> corruption.apply(
                BUILDER.build(spec, inputs)), TwoSidedCompression.Gate.ALWAYS.compactAbove(compactAbove));
        assertNotNull(a);
        return a;
    }

    private static void assertSame(GradientResult e, GradientResult c, String name) {
        assertEquals(e.verdict(), c.verdict(), name);
        assertEquals(e.maxAbsError(), c.maxAbsError(), 0, name);
        assertEquals(e.maxRelError(), c.maxRelError(), 0, name);
        assertEquals(e.maxScore(), c.maxScore(), 0, name);
        assertArrayEquals(e.worst().outputIndex(), c.worst().outputIndex(), name);
        assertArrayEquals(e.worst().inputIndex(), c.worst().inputIndex(), name);
        assertEquals(e.worst().analytic(), c.worst().analytic(), 0, name);
        assertEquals(e.worst().numerical(), c.worst().numerical(), 0, name);
        assertEquals(e.mismatches().count(), c.mismatches().count(), name);
    }
}
