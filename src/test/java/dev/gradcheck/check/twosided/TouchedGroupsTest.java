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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A round of locating that evaluates only the groups its located lines touch ({@link TouchedGroups}) against the
 * whole run taken again: the same rows, verdict, worst entry with its values and score, mismatch count and note,
 * for every wrong backward the search locates, and never more evaluations. TwoSidedCompressionTest holds the same
 * cases against dense mode.
 */
class TouchedGroupsTest {

    private static final Nd4jOpBuilder BUILDER = new Nd4jOpBuilder(OpCatalog.nd4j());

    private static final String SOFTMAX = """
            op: softmax
            attrs: {dimension: 1}
            inputs:
              x: {shape: [6, 20], init: {uniform: [-2, 2]}}
            """;

    private static final String TANH = """
            op: tanh
            inputs:
              x: {shape: [12, 12], init: {uniform: [-2, 2]}}
            """;

    /**
     * Every case TwoSidedCompressionTest locates, and two backwards not linear in their cotangent, whose touched
     * groups cannot be certified against the first run (the whole run is then taken again, after the few
     * evaluations of the round that gave up).
     */
    static Stream<Arguments> located() {
        return Stream.concat(TwoSidedCompressionTest.valuesOutsideThePatternLocated()
                .map(a -> Arguments.of(a.get()[0], a.get()[1], a.get()[2], true)), Stream.of(
                Arguments.of("softmax, a nonzero that grows with the cotangent's square", SOFTMAX,
                        squaredOutside(3, 70, 1e-4), false),
                Arguments.of("tanh, a nonzero that grows with the cotangent's square", TANH,
                        squaredOutside(2, 100, 1e-4), false)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("located")
    void evaluatingOnlyTheTouchedGroupsGivesTheWholeRunsRows(String name, String yaml, Corruption corruption,
                                                            boolean linear) throws Exception {
        TwoSidedCompression.Attempt touched = attempt(yaml, corruption, true);
        TwoSidedCompression.Attempt whole = attempt(yaml, corruption, false);
        assertNotNull(touched.rows(), name);
        assertEquals(whole.rows().size(), touched.rows().size(), name);
        assertTrue(touched.rows().stream().anyMatch(r -> !r.verdict().passed()), name + ": still caught");
        for (int k = 0; k < whole.rows().size(); k++) {
            assertSameRow(whole.rows().get(k), touched.rows().get(k), name + ", row " + k);
        }
        assertTrue(!linear || evaluations(touched) <= evaluations(whole), name + ": " + evaluations(touched)
                + " against " + evaluations(whole));
    }

    /**
     * softmax's value in another row of the batch: the whole run taken again twice (the located row, then the row
     * its group still hid) against a few evaluations of the touched groups.
     */
    @Test
    void aValueOutsideThePatternCostsOnlyTheGroupsItTouched() throws Exception {
        Corruption outside = CompressedJacobiansTest.addOutside("x", "0", 3, 70, 1e-4);
        TwoSidedCompression.Attempt touched = attempt(SOFTMAX, outside, true);
        TwoSidedCompression.Attempt whole = attempt(SOFTMAX, outside, false);
        GradientResult row = touched.rows().get(0);
        assertEquals(Verdict.MISMATCH, row.verdict());
        assertEquals(1, row.mismatches().count());
        assertArrayEquals(new long[] {0, 3}, row.worst().outputIndex());
        assertArrayEquals(new long[] {3, 10}, row.worst().inputIndex());
        long right = evaluations(attempt(SOFTMAX, f -> f, true));
        assertTrue(evaluations(touched) < right + (evaluations(whole) - right) / 2, evaluations(touched) + " against "
                + evaluations(whole) + ", the right backward's " + right);
    }

    private static TwoSidedCompression.Attempt attempt(String yaml, Corruption corruption, boolean touchedOnly)
            throws Exception {
        return TwoSidedCompressionTest.attempt(yaml, (spec, inputs) -> corruption.apply(BUILDER.build(spec, inputs)),
                TwoSidedCompression.Gate.ALWAYS.locating(true).touchedOnly(touchedOnly));
    }

    private static long evaluations(TwoSidedCompression.Attempt a) {
        return a.rows().stream().mapToLong(GradientResult::evaluations).sum();
    }

    private static void assertSameRow(GradientResult whole, GradientResult touched, String block) {
        assertEquals(whole.verdict(), touched.verdict(), block);
        assertEquals(whole.note(), touched.note(), block);
        assertEquals(whole.mismatches().count(), touched.mismatches().count(), block);
        assertArrayEquals(whole.worst().outputIndex(), touched.worst().outputIndex(), block);
        assertArrayEquals(whole.worst().inputIndex(), touched.worst().inputIndex(), block);
        if (!whole.verdict().passed()) { // a passing block's worst figures are read off different group sums
            assertEquals(whole.worst().analytic(), touched.worst().analytic(), 0, block);
            assertEquals(whole.worst().numerical(), touched.worst().numerical(), 0, block);
            assertEquals(whole.maxScore(), touched.maxScore(), 0, block);
        }
    }

    /**
     * d output[row] / d input[col] gains eps times the square of output[row]'s cotangent where the true derivative
     * is 0: a backward not linear in its cotangent, so that a group's value is not its rows' values added up.
     */
    private static Corruption squaredOutside(int row, int col, double eps) {
        return f -> new Functions.Delegate(f) {
            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                Map<String, INDArray> g = new HashMap<>(f.vjp(in, ct, wrt));
                INDArray flat = g.get("x").dup().reshape(-1);
                double c = ct.get("0").reshape(-1).getDouble(row);
                flat.putScalar(col, flat.getDouble(col) + eps * c * c);
                g.put("x", flat.reshape(g.get("x").shape()));
                return g;
            }
        };
    }
}
