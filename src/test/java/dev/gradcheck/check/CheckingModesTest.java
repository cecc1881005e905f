package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Fast mode, order 2, the sanity checks and determinism on functions with closed-form Jacobians: each with a
 * backward that must pass and one that is wrong and must fail.
 */
class CheckingModesTest {

    private static final String SPEC = GradientCheckerTest.SPEC;


    private static CheckResult check(String yaml, Supplier<Differentiable> function) {
        return new GradientChecker((spec, inputs) -> function.get(), "test").check(Specs.parse(yaml));
    }

    private static GradientResult only(CheckResult r, CheckKind kind) {
        List<GradientResult> rows = r.rowsOf(kind);
        assertEquals(1, rows.size(), r.toString());
        return rows.get(0);
    }

    // ---- fast mode ----

    @Test
    void fastModeComparesOneProjectionPerBlock() {
        CheckResult r = check(SPEC + "mode: fast\n", Functions::squareAndDot);
        assertEquals(Status.PASSED, r.status(), r.toString());
        List<GradientResult> fast = r.rowsOf(CheckKind.FAST);
        assertEquals(4, fast.size());
        assertTrue(r.rowsOf(CheckKind.JACOBIAN).isEmpty(), "nothing fell back to full mode");
        for (GradientResult g : fast) {
            assertTrue(g.maxRelError() < 1e-8, g.toString());
        }
        // 2 forwards along u per input and 1 backward with cotangent v per output, each counted in one row
        assertEquals(2 * 2 + 2, fast.stream().mapToLong(GradientResult::evaluations).sum(), fast.toString());
        assertEquals(3, fast.get(0).evaluations(), "the first row counts its input's projection and its output's pass");
    }

    @Test
    void aFastFailureIsRecheckedInFullAndNamesTheWorstElement() {
        CheckResult r = check(SPEC + "mode: fast\n", () -> Functions.withBackward(Functions.squareAndDot(),
                Functions.scaledBy(1.01)));
        assertEquals(Status.FAILED, r.status());
        assertTrue(r.rowsOf(CheckKind.FAST).isEmpty(), "every input failed, so every block was rechecked");
        GradientResult worst = r.worstGradient();
        assertEquals(CheckKind.JACOBIAN, worst.kind());
        assertEquals(Verdict.MISMATCH, worst.verdict());
        assertEquals(2, worst.worst().inputIndex().length, "a multi-index, as in full mode");
        assertTrue(worst.note().startsWith("fast mode mismatch"), worst.note());
    }

    @Test
    void fastModeSeesOneWrongEntryAmongMany() {
        // one entry of the gradient 1e-3 off (relative): the projection carries it with weight |v_i·u_j|, far
        // above the 1e-6 tolerance
        UnaryOperator<INDArray> oneEntry = g -> g.dup().putScalar(4, g.getDouble(4) * (1 + 1e-3));
        CheckResult r = check(SPEC + "mode: fast\ncheck: [x]\n",
                () -> Functions.withBackward(Functions.squareAndDot(), oneEntry));
        assertEquals(Status.FAILED, r.status(), r.toString());
        assertEquals(List.of(1L, 1L), List.of(r.worstGradient().worst().inputIndex()[0],
                r.worstGradient().worst().inputIndex()[1]), "the full recheck finds x[1, 1] (flat 4)");
    }

    @Test
    void aZeroBackwardFailsInFastModeToo() {
        CheckResult r = check(SPEC + "mode: fast\ntolerance: {atol: 10, rtol: 10}\n",
                () -> Functions.withBackward(Functions.squareAndDot(), Functions.zeroed()));
        assertEquals(Status.FAILED, r.status());
        assertEquals(Verdict.ZERO_GRADIENT, r.worstGradient().verdict());
    }

    // ---- order 2 ----

    @Test
    void secondOrderChecksTheBackwardByInputsAndCotangents() {
        CheckResult r = check(SPEC + "order: 2\n", Functions::squareAndDot);
        assertEquals(Status.PASSED, r.status(), r.toString());
        List<GradientResult> second = r.gradients().stream().filter(g -> g.order() == 2).toList();
        // outputs grad_x, grad_w; inputs x, w, v_0, v_1
        assertEquals(8, second.size(), second.toString());
        assertTrue(second.stream().allMatch(g -> g.maxRelError() < 1e-6), second.toString());
    }

    @Test
    void aWrongDoubleBackwardFailsOnlyAtOrderTwo() {
        CheckResult r = check(SPEC + "order: 2\n", () -> Functions.squareAndDot(Functions.scaledBy(1.5)));
        assertEquals(Status.FAILED, r.status());
        List<GradientResult> first = r.gradients().stream().filter(g -> g.order() == 1).toList();
        assertFalse(first.isEmpty(), r.toString());
        assertTrue(first.stream().allMatch(g -> g.verdict().passed()), "the first-order backward is right");
        GradientResult worst = r.worstGradient();
        assertEquals(2, worst.order());
        assertEquals("x", worst.input(), "d grad/dx is the corrupted part");
    }

    @Test
    void scalarOutputsGetAHessianVectorProduct() {
        CheckResult r = check(SPEC + "order: 2\noutput: 1\n", Functions::squareAndDot);
        assertEquals(Status.PASSED, r.status(), r.toString());
        assertEquals(2, r.rowsOf(CheckKind.HVP).size());
        CheckResult wrong = check(SPEC + "order: 2\noutput: 1\ncheck: [x]\n",
                () -> Functions.squareAndDot(g -> g.add(0.25)));
        assertEquals(Status.FAILED, wrong.status());
        assertEquals(Verdict.MISMATCH, only(wrong, CheckKind.HVP).verdict());
    }

    @Test
    void withoutASecondOrderBackwardOrderTwoErrsAndKeepsTheFirstOrderRows() {
        CheckResult r = check(SPEC + "order: 2\n", () -> Functions.firstOrderOnly(Functions.squareAndDot()));
        assertEquals(Status.ERROR, r.status(), r.toString());
        assertTrue(r.message().contains("no second-order backward"), r.message());
        assertEquals(4, r.rowsOf(CheckKind.JACOBIAN).size(), "the first-order blocks are still reported");
    }

    // ---- sanity checks ----

    @Test
    void aHealthyFunctionHoldsEverySanityCheck() {
        CheckResult r = check(SPEC, Functions::squareAndDot);
        for (CheckKind kind : List.of(CheckKind.ZERO_GRAD, CheckKind.INPUT_MUTATION, CheckKind.OUTPUT_STABILITY,
                CheckKind.DETERMINISM)) {
            GradientResult row = only(r, kind);
            assertEquals(Verdict.PASS, row.verdict(), row.toString());
            assertEquals("*", row.input());
        }
    }

    @Test
    void aBackwardThatGivesGradientsForZeroCotangentsIsCaught() {
        CheckResult r = check(SPEC, () -> Functions.withBackward(Functions.squareAndDot(), g -> g.add(1e-3)));
        GradientResult row = only(r, CheckKind.ZERO_GRAD);
        assertEquals(Verdict.NONZERO_FOR_ZERO_GRAD, row.verdict());
        assertTrue(row.note().contains("0.001"), row.note());
        assertEquals(Status.FAILED, r.status());
    }

    @Test
    void aForwardThatChangesItsInputIsCaught() {
        CheckResult r = check(SPEC, () -> Functions.mutatingInput(Functions.squareAndDot()));
        GradientResult row = only(r, CheckKind.INPUT_MUTATION);
        assertEquals(Verdict.INPUT_MUTATED, row.verdict());
        assertEquals("x", row.input());
        assertEquals(Status.FAILED, r.status());
    }

    @Test
    void anOutputThatChangesShapeUnderPerturbationIsCaught() {
        String spec = """
                op: test-function
                inputs:
                  x: {shape: [4], init: {values: [0.5, 1.0, 1.5, 2.0]}}
                """;
        CheckResult r = check(spec, Functions::elementsAboveOne);
        GradientResult row = only(r, CheckKind.OUTPUT_STABILITY);
        assertEquals(Verdict.UNSTABLE_OUTPUT, row.verdict());
        assertTrue(row.note().contains("[2]") && row.note().contains("[3]"), row.note());
        assertEquals(Status.FAILED, r.status());
        CheckResult away = check(spec.replace("1.0, 1.5", "1.25, 1.5"), Functions::elementsAboveOne);
        assertEquals(Status.PASSED, away.status(), "no element at the edge, nothing unstable: " + away);
    }

    @Test
    void aNondeterministicBackwardIsItsOwnVerdict() {
        CheckResult r = check(SPEC, () -> Functions.noisyBackward(Functions.squareAndDot(), 1e-13));
        GradientResult row = only(r, CheckKind.DETERMINISM);
        assertEquals(Verdict.NONDETERMINISTIC, row.verdict());
        assertEquals(Status.FAILED, r.status(), "the Jacobian itself is fine; determinism alone fails it");
        assertFalse(r.rowsOf(CheckKind.JACOBIAN).isEmpty(), r.toString());
        assertTrue(r.rowsOf(CheckKind.JACOBIAN).stream().allMatch(g -> g.verdict().passed()));
        CheckResult tolerated = check(SPEC + "nondet_tol: 1.0e-9\n",
                () -> Functions.noisyBackward(Functions.squareAndDot(), 1e-13));
        assertEquals(Status.PASSED, tolerated.status(), tolerated.toString());
    }

    // ---- expecting one kind of row to fail ----

    @Test
    void anExpectationNamingItsRowKindsStillGuardsTheOthers() {
        String onlyZeroGrad = SPEC + "expect: {fail: [zero-grad, linearity]}\nreason: the backward leaks a constant\n";
        // a backward that leaks a constant: only the zero-grad and linearity rows fail (J + c is affine in the
        // cotangent, not linear), as expected
        UnaryOperator<INDArray> leak = g -> g.add(1e-3);
        CheckResult leaky = check(onlyZeroGrad + "tolerance: {atol: 1.0e-2, rtol: 0}\n",
                () -> Functions.withBackward(Functions.squareAndDot(), leak));
        assertEquals(Status.EXPECTED_FAIL, leaky.status(), leaky.toString());
        // the same leak plus a wrong Jacobian: a row the expectation did not name fails, so the check fails
        CheckResult worse = check(onlyZeroGrad, () -> Functions.withBackward(Functions.squareAndDot(),
                g -> g.mul(1.5).add(1e-3)));
        assertEquals(Status.FAILED, worse.status());
        assertEquals(Status.UNEXPECTED_PASS, check(onlyZeroGrad, Functions::squareAndDot).status());
    }

    @Test
    void theRowKindsASpecMayNameAreTheCheckersOwn() {
        assertEquals(java.util.Arrays.stream(CheckKind.values()).map(CheckKind::reportName).toList(),
                dev.gradcheck.spec.Expectation.ROW_KINDS);
    }

    // ---- sampling ----

    @Test
    void maxElementsChecksASeededSampleAndSaysSo() {
        CheckResult r = check(SPEC + "max_elements: 2\n", Functions::squareAndDot);
        assertEquals(Status.PASSED, r.status(), r.toString());
        GradientResult block = r.rowsOf(CheckKind.JACOBIAN).get(0);
        assertNotNull(block.sampling());
        assertEquals(2, block.sampling().inputChecked());
        assertEquals(6, block.sampling().inputTotal());
        assertEquals(2, block.sampling().outputChecked());
    }

    @Test
    void aSampleStillCatchesAWrongDiagonal() {
        // d y0 / d x is diagonal: the rows are chosen among those the sampled columns move, so the sample sees it
        CheckResult r = check(SPEC + "max_elements: 2\noutput: 0\ncheck: [x]\n",
                () -> Functions.withBackward(Functions.squareAndDot(), Functions.scaledBy(1.01)));
        assertEquals(Status.FAILED, r.status());
        GradientResult block = only(r, CheckKind.JACOBIAN);
        assertEquals(Verdict.MISMATCH, block.verdict());
        assertEquals(block.worst().outputIndex()[1], block.worst().inputIndex()[1], "found on the diagonal");
    }
}
