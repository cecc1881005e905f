package dev.gradcheck.check.twosided;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.colouring.CompressedJacobiansTest;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.ForwardingFunction;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.AffineInputs;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Verdict;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Near entries along an input the forward is declared affine in ({@link AffineInputs}), settled by one forward at
 * 100·h ({@link dev.gradcheck.check.numeric.OneSidedStep}) where the data agree with the declaration: a convolution's
 * right backward passes with its near groups so settled and fewer evaluations, one near entry wrong by 1.5 times
 * what the tolerance allows still fails there; a forward declared affine that is not (layer_norm in x) has its
 * groups refuted by the data, taken at finer steps as any other, and a wrong entry there fails; an op the table does
 * not hold never takes the path.
 */
class DeclaredAffineTest {

    private static final Nd4jOpBuilder BUILDER = new Nd4jOpBuilder(OpCatalog.nd4j());

    /** 64 channels in and out: 576-term sums, whose rounding at h hides entries of about 1e-3 from a verdict. */
    private static final String CONV = """
            op: conv2d
            attrs: {kH: 3, kW: 3, sH: 1, sW: 1, pH: 0, pW: 0, dH: 1, dW: 1, isSameMode: 1, isNCHW: 0}
            inputs:
              x: {shape: [1, 64, 4, 4], init: {uniform: [-1, 1]}}
              w: {shape: [3, 3, 64, 64], init: {uniform: [-1, 1]}}
            """;

    /** layer_norm [1, 1000], whose entries about 1e-3 take finer steps (FinerStepsTest's): not affine in x. */
    private static final String LAYER_NORM = FinerStepsTest.LAYER_NORM;

    @Test
    void theTableHoldsConvolutionsAndMatrixProductsInEachInputAndNothingElse() {
        assertEquals(Set.of("x", "w", "b"), AffineInputs.declared("conv2d", java.util.List.of("x", "w", "b")).inputs());
        assertEquals(Set.of("a", "b"), AffineInputs.declared("matmul", java.util.List.of("a", "b")).inputs());
        assertEquals(AffineInputs.NONE, AffineInputs.declared("tanh", java.util.List.of("x")));
        assertEquals(AffineInputs.NONE, AffineInputs.declared("layer_norm", java.util.List.of("x", "gain", "bias")));
    }

    @Test
    void aConvolutionsNearGroupsAreSettledByOneForwardEachAndItsRightBackwardPasses() throws Exception {
        TwoSidedCompression.Attempt declared = TwoSidedCompressionTest.attempt(CONV, f -> f);
        TwoSidedCompression.Attempt undeclared = TwoSidedCompressionTest.attempt(CONV, undeclared());
        assertNotNull(declared.rows(), declared.declined());
        assertFalse(declared.screen().near().isEmpty(), "entries near the tolerance at h");
        for (int r = 0; r < 2; r++) {
            GradientResult d = declared.rows().get(r);
            GradientResult u = undeclared.rows().get(r);
            assertEquals(Verdict.PASS, d.verdict(), d.input());
            assertTrue(d.note().startsWith("conv2d is affine in " + d.input() + ": near entries judged by a"
                    + " one-sided difference at 100·h"), d.note());
            assertFalse(d.note().contains("disagreed"), d.note());
            assertNull(u.note(), "undeclared: taken at finer steps");
            assertEquals(u.verdict(), d.verdict());
        }
        long fewer = evaluations(undeclared) - evaluations(declared);
        long groups = declared.screen().near().stream().map(f -> f.input() + ":" + f.group()).distinct().count();
        assertEquals(3 * groups, fewer, "one forward a near group where the ladder takes four");
    }

    @Test
    void aNearEntryOffByOneAndAHalfAllowancesStillFailsThroughTheOneSidedDifference() throws Exception {
        TwoSidedScreen.Flagged near = TwoSidedCompressionTest.attempt(CONV, f -> f).screen().near().get(0);
        String in = near.input() == 0 ? "x" : "w";
        UnaryOperator<Differentiable> off = CompressedJacobiansTest.oneElementOff(in, "0", near.row(), near.col(),
                1.5e-6);
        TwoSidedCompression.Attempt a = TwoSidedCompressionTest.attempt(CONV, f -> declared(off.apply(f),
                f.affineInputs()));
        assertNotNull(a.rows(), a.declined());
        GradientResult r = a.rows().get(near.input());
        assertEquals(Verdict.MISMATCH, r.verdict(), r.toString());
        assertEquals(1, r.mismatches().count());
        assertTrue(r.note().contains("conv2d is affine in " + in) && !r.note().contains("disagreed"), r.note());
        assertArrayEquals(Flat.unravel(near.col(), in.equals("x") ? new long[] {1, 64, 4, 4}
                : new long[] {3, 3, 64, 64}), r.worst().inputIndex());
    }

    @Test
    void aForwardDeclaredAffineThatIsNotHasItsGroupsRefutedAndJudgedAsBefore() throws Exception {
        UnaryOperator<Differentiable> claimX = f -> declared(f, new AffineInputs("layer_norm", Set.of("x")));
        TwoSidedCompression.Attempt claimed = TwoSidedCompressionTest.attempt(LAYER_NORM, claimX::apply);
        TwoSidedCompression.Attempt plain = TwoSidedCompressionTest.attempt(LAYER_NORM, f -> f);
        assertNotNull(claimed.rows(), claimed.declined());
        GradientResult x = claimed.rows().get(0);
        assertTrue(x.note().contains("disagreed taken at finer steps"), x.note());
        assertEquals(plain.rows().get(0).verdict(), x.verdict());
        assertEquals(plain.rows().get(0).maxScore(), x.maxScore(), 0, "the same worst score");
        assertNull(plain.rows().get(0).note(), "layer_norm is declared affine in nothing");

        int row = 70;
        int col = FinerStepsTest.entryBetween(LAYER_NORM, "x", row, 1.05e-3, 3e-3);
        UnaryOperator<Differentiable> off = CompressedJacobiansTest.oneElementOff("x", "0", row, col, 1.5e-6);
        TwoSidedCompression.Attempt wrong = TwoSidedCompressionTest.attempt(LAYER_NORM,
                f -> claimX.apply(off.apply(f)));
        assertNotNull(wrong.rows(), wrong.declined());
        assertEquals(Verdict.MISMATCH, wrong.rows().get(0).verdict());
        assertEquals(1, wrong.rows().get(0).mismatches().count());
    }

    private static long evaluations(TwoSidedCompression.Attempt a) {
        return a.rows().stream().mapToLong(GradientResult::evaluations).sum();
    }

    /** The build as it is, declared affine in nothing. */
    private static CompressedJacobiansTest.Corruption undeclared() {
        return f -> declared(f, AffineInputs.NONE);
    }

    /** {@code f} whose forward is declared affine in {@code inputs}, whatever it computes. */
    private static Differentiable declared(Differentiable f, AffineInputs inputs) {
        return new ForwardingFunction(f) {
            @Override
            public AffineInputs affineInputs() {
                return inputs;
            }
        };
    }
}
