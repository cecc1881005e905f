package dev.gradcheck.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Complex ops as (re, im) pairs: the Wirtinger convention is checked part by part. */
class ComplexCheckTest {

    private static final INDArray A = Nd4j.createFromArray(0.5, -1.2, 2.0);
    private static final INDArray B = Nd4j.createFromArray(1.5, 0.3, -0.7);

    private static CheckResult check(ComplexSquare.Backward backward) {
        return GradCheck.of(new ComplexSquare(backward)).input("z.re", A).input("z.im", B).check();
    }

    @Test
    void theConjugateWirtingerGradientTimesTwoPassesEveryPart() {
        CheckResult r = check(ComplexSquare.Backward.CORRECT);
        assertEquals(Status.PASSED, r.status(), r.toString());
        assertEquals(List.of("w.re/z.re", "w.re/z.im", "w.im/z.re", "w.im/z.im"),
                r.rowsOf(CheckKind.JACOBIAN).stream().map(g -> g.output() + "/" + g.input()).toList());
    }

    @Test
    void aMissingConjugateFails() {
        CheckResult r = check(ComplexSquare.Backward.WITHOUT_CONJUGATE);
        assertEquals(Status.FAILED, r.status());
    }

    @Test
    void theWirtingerDerivativeWithoutTheFactorTwoFailsByHalf() {
        CheckResult r = check(ComplexSquare.Backward.CONJUGATE_WIRTINGER_WITHOUT_TWO);
        assertEquals(Status.FAILED, r.status());
        assertEquals(0.5, r.worstGradient().maxRelError(), 1e-6);
    }

    @Test
    void thePartsOfAPairMustMatch() {
        CheckResult r = GradCheck.of(new ComplexSquare(ComplexSquare.Backward.CORRECT)).input("z.re", A)
                .input("z.im", Nd4j.createFromArray(1.0, 2.0)).check();
        assertEquals(Status.INVALID, r.status());
        assertTrue(r.message().contains("plugin op 'complex_square' is complex: 'z.im' must have the shape and dtype"
                + " of 'z.re' ([3] float64), not [2] float64"), r.message());
    }
}
