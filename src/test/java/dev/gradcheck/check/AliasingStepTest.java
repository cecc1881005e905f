package dev.gradcheck.check;

import static dev.gradcheck.check.Rows.jacobian;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A forward periodic at the scale of the larger steps the most precise step tries: y = sin(w·x) with w·h a
 * fiftieth of a period, so 100·h is two whole periods and 50·h one, where the difference and its half-step error
 * both vanish. Before, that step's tiny bound won and a right backward failed with a score of 2e13; now a larger
 * step whose value disagrees with h's beyond both bounds is not taken, a smaller one is tried where the bound is
 * truncation, and what no step resolves is `unresolvable`: not failed, counted in the note with its bound.
 */
class AliasingStepTest {

    private static final String SIN_WX = sinWx(4, 5);

    static String sinWx(int rows, int cols) {
        return """
                name: sin-of-w-x
                graph:
                  - {op: multiply, in: [x, w], out: a}
                  - {op: sin, in: [a], out: y}
                inputs:
                  x: {shape: [%d, %d], init: {uniform: [0.5, 1.0]}}
                  w: {shape: [%d, %d], init: {constant: 125663.7}}
                no_grad: [w]
                """.formatted(rows, cols, rows, cols);
    }

    /**
     * At layer size both sides compressed see every entry beyond the rule with only its rounding bound, more than
     * may be recomputed alone (4096), and dense blocks (64 GiB) do not fit. The entries of the lines located pass
     * alone, so the check runs once more with each such entry judged at its most precise step: the right one passes,
     * its entries the differences cannot resolve counted as dense mode counts them; the wrong one fails.
     */
    @Tag("slow") // two full checks of 65,536 elements (dense blocks: 64 GiB): both sides compressed
    @Test
    void atLayerSizesTheRightOneIsUnresolvableAndAWrongOneFails() {
        String big = sinWx(256, 256) + "mode: full\n";
        CheckResult r = RealOps.check(big);
        assertEquals(Status.PASSED, r.status(), r.toString());
        GradientResult row = jacobian(r);
        assertEquals(Verdict.UNRESOLVABLE, row.verdict(), row.note());
        assertTrue(row.note().contains("finite differences' own error"), row.note());
        CheckResult wrong = RealOps.checkCorrupted(big, Functions.scaledBy(1.01));
        assertEquals(Status.FAILED, wrong.status(), wrong.toString());
        assertEquals(Verdict.MISMATCH, jacobian(wrong).verdict());
        System.out.println("sin(w·x) [256,256]: right " + r.status() + " " + row.evaluations() + " evaluations "
                + row.seconds() + " s: " + row.note() + "; x1.01 " + jacobian(wrong).evaluations() + " evaluations "
                + jacobian(wrong).seconds() + " s: " + jacobian(wrong).note());
    }

    @Test
    void aRightBackwardIsNotFailedWhereLargerStepsAlias() {
        CheckResult r = RealOps.check(SIN_WX);
        assertEquals(Status.PASSED, r.status(), r.toString());
        GradientResult row = jacobian(r);
        assertTrue(Math.abs(row.worst().numerical() - row.worst().analytic())
                < 1e-3 * Math.abs(row.worst().analytic()), "the numerical value is h's or h/10's, not an alias");
        // still beyond the tolerance at h/10, within the differences' own error there: unresolved, and said so
        assertEquals(Verdict.UNRESOLVABLE, row.verdict(), row.note());
        assertTrue(row.note().contains("finite differences' own error"), row.note());
        assertTrue(row.verdict().passed());
    }

    @Test
    void aWrongBackwardStillFailsThere() {
        CheckResult r = RealOps.checkCorrupted(SIN_WX, Functions.scaledBy(1.01));
        assertEquals(Status.FAILED, r.status());
        assertEquals(Verdict.MISMATCH, jacobian(r).verdict());
    }
}
