package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ties: the subgradient condition holds for the op as a whole, not per input. max(x, y) at x = y may send the
 * gradient to x, to y or split it; sending all of it to both passes each input's own bracket [0, 1] and must
 * still fail, in full mode and in fast mode (where the full recheck is not needed to see it).
 */
class TiesTest {

    /** Two ties (elements 0 and 2) among four elements. */
    private static final String TIES = """
            op: max
            inputs:
              x: {shape: [4], init: {values: [1.0, 2.0, -0.5, 3.0]}}
              y: {shape: [4], init: {values: [1.0, 1.5, -0.5, 3.5]}}
            """;

    private static CheckResult check(String yaml, Functions.TieRule ties) {
        return new GradientChecker((spec, inputs) -> Functions.maxOf(ties), "test").check(Specs.parse(yaml));
    }

    @ParameterizedTest
    @ValueSource(strings = {"full", "fast"})
    void theFullGradientToBothTiedInputsIsNoSubgradientOfTheOp(String mode) {
        CheckResult r = check(TIES + "mode: " + mode + "\n", Functions.TieRule.TO_BOTH);
        assertEquals(Status.FAILED, r.status(), r.toString());
        GradientResult x = r.gradients().stream().filter(g -> g.input().equals("x")).findFirst().orElseThrow();
        assertEquals(Verdict.MISMATCH, x.verdict(), r.toString());
        assertTrue(x.note().contains("x[0] + y[0] tie at a kink") && x.note().contains("add up to 2.00000")
                && x.note().contains("slope is 1.00000"), x.note());
    }

    @Test
    void fastModeSeesTheTieWithoutAFullRecheck() {
        // room for the fast vectors (256 bytes) but not the full blocks (512): fast mode must decide alone
        CheckResult r = new GradientChecker((spec, inputs) -> Functions.maxOf(Functions.TieRule.TO_BOTH), "test",
                new dev.gradcheck.spec.MemoryBudget(400)).check(Specs.parse(TIES + "mode: fast\n"));
        assertEquals(Status.FAILED, r.status(), r.toString());
        assertTrue(r.rowsOf(CheckKind.JACOBIAN).isEmpty(), "nothing was rechecked in full: " + r);
        assertFalse(r.rowsOf(CheckKind.FAST).isEmpty(), r.toString());
        assertTrue(r.rowsOf(CheckKind.FAST).stream().allMatch(g -> g.note().contains("tie at a kink")), r.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"full", "fast"})
    void aTieBrokenOneWayOrSplitPasses(String mode) {
        CheckResult toX = check(TIES + "mode: " + mode + "\n", Functions.TieRule.TO_X);
        assertEquals(Status.PASSED, toX.status(), toX.toString());
        assertTrue(toX.gradients().stream().anyMatch(g -> g.verdict() == Verdict.NONDIFFERENTIABLE),
                "all to x disagrees with the central difference (1/2) at the ties, which are kinks: " + toX);
        CheckResult split = check(TIES + "mode: " + mode + "\n", Functions.TieRule.SPLIT);
        assertEquals(Status.PASSED, split.status(), split.toString());
    }

    @Test
    void tiesWithinOneInputAreJudgedTogetherToo() {
        // reduce_max over a row [1, 3, 3]: ND4J gives the tie to one element (passes); copying that gradient to the
        // other tied element too gives 2 along the direction moving both, where max moves by 1
        String spec = """
                op: reduce_max
                attrs: {dimensions: [1]}
                inputs:
                  x: {shape: [2, 3], init: {values: [[1.0, 3.0, 3.0], [0.5, -1.0, 2.0]]}}
                """;
        Nd4jOpBuilder builder = new Nd4jOpBuilder(OpCatalog.nd4j());
        CheckResult nd4j = new GradientChecker(builder::build, "cpu").check(Specs.parse(spec));
        assertEquals(Status.PASSED, nd4j.status(), nd4j.toString());
        FunctionFactory toBoth = (s, inputs) -> Functions.withBackward(builder.build(s, inputs), g -> {
            org.nd4j.linalg.api.ndarray.INDArray copy = g.dup();
            copy.putScalar(new long[] {0, 2}, g.getDouble(0, 1) + g.getDouble(0, 2));
            copy.putScalar(new long[] {0, 1}, g.getDouble(0, 1) + g.getDouble(0, 2));
            return copy;
        });
        CheckResult wrong = new GradientChecker(toBoth, "cpu").check(Specs.parse(spec));
        assertEquals(Status.FAILED, wrong.status(), wrong.toString());
        assertTrue(wrong.worstGradient().note().contains("x[0, 1] + x[0, 2] tie at a kink"),
                wrong.worstGradient().note());
    }
}
