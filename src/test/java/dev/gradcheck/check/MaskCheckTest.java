package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * {@code mask:} leaves entries out of judging, and the report counts them; {@code sample_seed:} draws a new sample
 * over the same inputs.
 */
class MaskCheckTest {

    /** {@link Functions#squareAndDot()} with the gradient of x[0, 1] doubled: column x[0, 1] is wrong. */
    static Differentiable wrongAtX01() {
        return new Functions.Delegate(Functions.squareAndDot()) {
            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                Map<String, INDArray> g = new HashMap<>(super.vjp(in, ct, wrt));
                INDArray x = g.get("x").dup();
                x.putScalar(new long[] {0, 1}, 2 * x.getDouble(0, 1));
                g.put("x", x);
                return g;
            }
        };
    }

    private static CheckResult check(String extra, Differentiable f) {
        String yaml = GradientCheckerTest.SPEC + extra;
        return new GradientChecker((s, in) -> f, "test").check(Specs.parse(yaml));
    }

    private static GradientResult row(CheckResult r, CheckKind kind, String output, String input) {
        return r.rowsOf(kind).stream().filter(g -> g.output().equals(output) && g.input().equals(input))
                .findFirst().orElseThrow(() -> new AssertionError(r.toString()));
    }

    @Test
    void aMaskedInputElementIsLeftOutOfEveryBlockAndCounted() {
        CheckResult unmasked = check("", wrongAtX01());
        assertEquals(Status.FAILED, unmasked.status());
        assertEquals(Verdict.MISMATCH, row(unmasked, CheckKind.JACOBIAN, "0", "x").verdict());
        assertEquals(Verdict.MISMATCH, row(unmasked, CheckKind.JACOBIAN, "1", "x").verdict());

        CheckResult masked = check("mask: ['x[0, 1]']\n", wrongAtX01());
        assertEquals(Status.PASSED, masked.status(), masked.toString());
        GradientResult y0 = row(masked, CheckKind.JACOBIAN, "0", "x");
        assertEquals(6, y0.mismatches().masked(), "column x[0, 1]: one entry per element of output 0");
        assertEquals(30, y0.mismatches().judged());
        assertEquals(1, row(masked, CheckKind.JACOBIAN, "1", "x").mismatches().masked(), "the scalar output's one");
        assertEquals(0, row(masked, CheckKind.JACOBIAN, "0", "w").mismatches().masked(), "w is not masked");
    }

    @Test
    void anEntryMaskLeavesOutThatEntryOnly() {
        CheckResult r = check("mask: ['0[0, 1] / x[0, 1]']\n", wrongAtX01());
        assertEquals(Verdict.PASS, row(r, CheckKind.JACOBIAN, "0", "x").verdict(), r.toString());
        assertEquals(1, row(r, CheckKind.JACOBIAN, "0", "x").mismatches().masked());
        assertEquals(Verdict.MISMATCH, row(r, CheckKind.JACOBIAN, "1", "x").verdict(),
                "output 1's entry for x[0, 1] is still judged, and still wrong");
        assertEquals(Status.FAILED, r.status());
    }

    @Test
    void aTiedMaskLeavesOutTheDiagonal() {
        CheckResult r = check("output: 0\nmask: ['out[i, j] / x[i, j]']\n",
                Functions.withBackward(Functions.squareAndDot(), Functions.scaledBy(1.01)));
        GradientResult dx = row(r, CheckKind.JACOBIAN, "0", "x");
        assertEquals(Verdict.PASS, dx.verdict(), "every nonzero entry of the elementwise block is masked");
        assertEquals(6, dx.mismatches().masked());
        assertEquals(Verdict.MISMATCH, row(r, CheckKind.JACOBIAN, "0", "w").verdict(), "w is still judged");
    }

    @Test
    void fastModeLeavesMaskedColumnsOutOfItsProjection() {
        CheckResult r = check("mode: fast\nmask: ['x[0, 1]']\n", wrongAtX01());
        assertEquals(Status.PASSED, r.status(), r.toString());
        assertEquals(Verdict.PASS, row(r, CheckKind.FAST, "0", "x").verdict(), "passed in fast mode: no recheck");
        assertEquals(Status.FAILED, check("mode: fast\n", wrongAtX01()).status());
    }

    @Test
    void aMaskNamingNoOutputOrOutsideItIsAnInvalidSpecAtTheEntry() {
        CheckResult outside = check("mask: ['0[5, 0]']\n", wrongAtX01());
        assertEquals(Status.INVALID, outside.status());
        assertTrue(outside.message().startsWith("test.yaml:6:8: mask '0[5, 0]': output 0 has length 2 along axis"
                + " 0, so index 5 is outside it"), outside.message());
        CheckResult unknown = check("mask: ['y[0]']\n", wrongAtX01());
        assertEquals(Status.INVALID, unknown.status());
        assertTrue(unknown.message().contains("'y' is neither an input nor a checked output (outputs: out)"),
                unknown.message());
    }

    /** Records the values of x at the first forward: the inputs a check drew. */
    static final class Recording extends Functions.Delegate {
        final List<double[]> seen = new ArrayList<>();

        Recording() {
            super(Functions.squareAndDot());
        }

        @Override
        public Map<String, INDArray> forward(Map<String, INDArray> in) {
            if (seen.isEmpty()) {
                seen.add(in.get("x").dup().data().asDouble());
            }
            return super.forward(in);
        }
    }

    @Test
    void aSampleSeedDrawsAnotherSampleOverTheSameInputs() {
        Recording first = new Recording();
        Recording second = new Recording();
        Recording reseeded = new Recording();
        CheckResult a = check("max_elements: 2\nsample_seed: 1\n", first);
        CheckResult b = check("max_elements: 2\nsample_seed: 2\n", second);
        CheckResult c = check("max_elements: 2\nseed: 8\n", reseeded);
        assertTrue(Arrays.equals(first.seen.get(0), second.seen.get(0)), "the same inputs");
        assertTrue(!Arrays.equals(first.seen.get(0), reseeded.seen.get(0)), "seed redraws the inputs");
        List<String> sampleA = positions(row(a, CheckKind.JACOBIAN, "0", "x"));
        List<String> sampleB = positions(row(b, CheckKind.JACOBIAN, "0", "x"));
        assertEquals(2, sampleA.size());
        assertNotEquals(sampleA, sampleB, "another sample");
        assertEquals(sampleA, positions(row(check("max_elements: 2\nsample_seed: 1\n", new Recording()),
                CheckKind.JACOBIAN, "0", "x")), "the same sample seed, the same sample");
    }

    private static List<String> positions(GradientResult g) {
        return g.sampling().inputPositions().stream().map(Arrays::toString).toList();
    }
}
