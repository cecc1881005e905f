package dev.gradcheck.check.twosided;

import static dev.gradcheck.check.Rows.jacobian;
import static dev.gradcheck.check.Rows.kinkCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.Functions;
import dev.gradcheck.check.colouring.CompressedJacobiansTest;
import dev.gradcheck.check.colouring.CompressedJacobiansTest.Corruption;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Kinks where both sides are compressed: relu's inputs with exact zeros (what real activations after a relu or a
 * pooling are full of). Each entry at a kink is taken alone and left out as the dense judge leaves it out, so the
 * two-sided path says what dense mode says (the same count, nondifferentiable, passed) where dense fits, and
 * passes at layer sizes where it does not; a backward whose value at the kink is no subgradient fails in both.
 */
class KinksAtSizeTest {

    /** relu on a grid of multiples of {@code step} in [-2, 2]: about one element in 4/step is exactly zero. */
    static String reluWithZeros(int rows, int cols, double step) {
        SplittableRandom rnd = new SplittableRandom(11);
        StringBuilder values = new StringBuilder("[");
        for (int r = 0; r < rows; r++) {
            values.append(r == 0 ? "[" : ",\n        [");
            for (int c = 0; c < cols; c++) {
                double v = Math.rint((rnd.nextDouble() * 4 - 2) / step) * step;
                values.append(c == 0 ? "" : ", ").append(v == 0 ? "0.0" : Double.toString(v));
            }
            values.append(']');
        }
        return """
                op: relu
                attrs: {cutoff: 0.0}
                inputs:
                  x:
                    shape: [%d, %d]
                    init: {values: %s]}
                """.formatted(rows, cols, values);
    }

    /** The backward's value at x = 0 set to 2·g: outside relu's one-sided slopes 0 and 1 there, no subgradient. */
    static Corruption noSubgradientAtZero() {
        return f -> new Functions.Delegate(f) {
            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                Map<String, INDArray> g = new HashMap<>(f.vjp(in, ct, wrt));
                double[] x = Flat.values(in.get("x"));
                double[] gx = Flat.values(g.get("x"));
                double[] c = Flat.values(ct.values().iterator().next());
                for (int i = 0; i < x.length; i++) {
                    gx[i] = x[i] == 0 ? 2 * c[i] : gx[i];
                }
                g.put("x", Flat.array(gx, in.get("x").shape()).castTo(g.get("x").dataType()));
                return g;
            }
        };
    }

    private static final String SMALL = reluWithZeros(12, 12, 0.25); // 144 elements, 9 of them zero

    @Test
    void entriesAtKinksAreLeftOutAsDenseModeLeavesThemOut() throws Exception {
        TwoSidedCompression.Attempt a = TwoSidedCompressionTest.attempt(SMALL, f -> f);
        assertNotNull(a.rows(), a.declined() + " " + (a.screen() == null ? "" : a.screen().first()));
        GradientResult dense = jacobian(CompressedJacobiansTest.check(SMALL + "compress: false\n", f -> f));
        GradientResult compressed = a.rows().get(0);
        assertEquals(Verdict.NONDIFFERENTIABLE, dense.verdict(), dense.note());
        assertEquals(dense.verdict(), compressed.verdict(), compressed.note());
        assertTrue(kinkCount(dense) > 0, dense.note());
        assertEquals(kinkCount(dense), kinkCount(compressed), compressed.note());
        assertTrue(compressed.evaluations() < dense.evaluations());
    }

    @Test
    void aValueAtAKinkThatIsNoSubgradientFailsAsInDenseMode() throws Exception {
        TwoSidedCompression.Attempt a = TwoSidedCompressionTest.attempt(SMALL, noSubgradientAtZero());
        assertNotNull(a.rows(), a.declined() + " " + (a.screen() == null ? "" : a.screen().first()));
        GradientResult dense = jacobian(CompressedJacobiansTest.check(SMALL + "compress: false\n",
                noSubgradientAtZero()));
        GradientResult compressed = a.rows().get(0);
        assertEquals(Verdict.MISMATCH, dense.verdict());
        assertEquals(Verdict.MISMATCH, compressed.verdict());
        assertEquals(dense.mismatches().count(), compressed.mismatches().count());
    }

    private static final String BIG = reluWithZeros(256, 256, 1.0 / 64); // 65,536 elements, about 256 zero

    @Tag("slow") // two checks of 65,536 elements in full mode (dense blocks: 64 GiB)
    @Test
    void atLayerSizesReluWithExactZerosPassesWithItsKinksCountedAndAWrongOneFails() {
        CheckResult right = CompressedJacobiansTest.check(BIG + "mode: full\n", f -> f);
        assertEquals(Status.PASSED, right.status(), right.message());
        GradientResult row = jacobian(right);
        assertEquals(Verdict.NONDIFFERENTIABLE, row.verdict(), row.note());
        assertEquals(zerosIn(BIG), kinkCount(row), row.note());
        CheckResult wrong = CompressedJacobiansTest.check(BIG + "mode: full\n", noSubgradientAtZero());
        assertEquals(Status.FAILED, wrong.status(), wrong.message());
        assertEquals(zerosIn(BIG), jacobian(wrong).mismatches().count(), "every zero's entry, counted exactly");
    }

    private static long zerosIn(String yaml) {
        Matcher m = Pattern.compile("[\\[ ]0\\.0[,\\]]").matcher(yaml);
        long n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
