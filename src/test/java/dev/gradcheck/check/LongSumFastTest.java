package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.MemoryBudget;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Fast mode on a scalar that is a float64 sum of 401,408 terms added one after another, as DL4J's loss layers sum
 * their score: its rounding is about ε·|f|·√n/6, 3–4 times what the rounding model allows, so a right backward
 * failed its projection whenever the half step happened to agree with the step (DL4J's CnnLossLayer at
 * 8×64×28×28 did). The forward's noise measured along u now bounds the finite differences of a failing projection;
 * a backward wrong by 10⁻⁴ of its value, or in one entry, still fails.
 */
class LongSumFastTest {

    /** As many terms as CnnLossLayer's score at 8×64×28×28. */
    private static final int TERMS = 401_408;

    /**
     * A budget that holds fast mode's vectors, not the full recheck's 401,408 columns (802,816 forwards, minutes),
     * which a projection that fails and names no entry would run.
     */
    private static final MemoryBudget NO_RECHECK = new MemoryBudget(16L << 20);

    private static String spec(long seed) {
        return "op: long-sum\nmode: fast\nseed: " + seed + "\ninputs: {x: {shape: [" + TERMS
                + "], init: {uniform: [0, 1]}}}\n";
    }

    /** f(x) = Σ (xᵢ² + xᵢ), summed term by term in float64: a loss's score; its gradient 2·xᵢ + 1, exact. */
    static Differentiable longSum() {
        return new Differentiable() {
            @Override
            public List<String> inputNames() {
                return List.of("x");
            }

            @Override
            public List<String> outputNames() {
                return List.of("score");
            }

            @Override
            public Map<String, INDArray> forward(Map<String, INDArray> in) {
                double sum = 0;
                for (double x : in.get("x").toDoubleVector()) {
                    sum += x * x + x;
                }
                return Map.of("score", Nd4j.createFromArray(sum));
            }

            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                INDArray x = in.get("x");
                return Map.of("x", x.mul(2).addi(1).muli(ct.get("score").getDouble(0)));
            }
        };
    }

    private static CheckResult check(long seed, UnaryOperator<INDArray> corrupt) {
        FunctionFactory f = (spec, in) -> corrupt == null ? longSum() : Functions.withBackward(longSum(), corrupt);
        return new GradientChecker(f, "test", NO_RECHECK).check(Specs.parse(spec(seed)));
    }

    private static GradientResult fastRow(CheckResult r) {
        return r.rowsOf(CheckKind.FAST).stream().filter(g -> g.input().equals("x")).findFirst()
                .orElseThrow(() -> new AssertionError(r.status() + ": " + r.message()));
    }

    /**
     * The seeds (of 12 tried) whose projection failed before the noise was measured: scores 1.36, 1.73 and 2.22, the
     * numerical value 2e-5 to 1.2e-4 of its size away at h, where the half step had come out close to it.
     */
    @ParameterizedTest
    @ValueSource(longs = {5, 7, 11})
    void theRightSumPassesItsProjection(long seed) {
        CheckResult r = check(seed, null);
        GradientResult x = fastRow(r);
        assertEquals(Status.PASSED, r.status(), x.toString());
        assertTrue(x.note().contains("the forward's noise along u, measured"), x.note());
    }

    @Test
    void aSumWrongByOnePartIn10000StillFails() {
        GradientResult x = fastRow(check(11, Functions.scaledBy(1 + 1e-4)));
        assertEquals(Verdict.MISMATCH, x.verdict(), x.toString());
    }

    @Test
    void aSumWrongInOneEntryStillFails() {
        UnaryOperator<INDArray> oneEntry = g -> g.dup().putScalar(12_345, g.getDouble(12_345) + 1);
        GradientResult x = fastRow(check(11, oneEntry));
        assertEquals(Verdict.MISMATCH, x.verdict(), x.toString());
    }
}
