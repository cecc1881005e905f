package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The forward at x that the determinism row's forward elsewhere leaves owed: paid before the next backward, and not
 * made at all when a forward comes first (fast mode's first calls), so that a backward reading the last forward's
 * state meets, in the mode, what it met before the debt was deferred; and the determinism row still catches it.
 */
class OwedForwardTest {

    private static final Map<String, INDArray> X = Map.of("x", Nd4j.createFromArray(0.5, -1.0));
    private static final Map<String, INDArray> Y = Map.of("x", Nd4j.createFromArray(2.0, 3.0));

    @Test
    void aBackwardAfterTheDebtMeetsTheStateAForwardAtXLeaves() {
        Recorder r = new Recorder();
        OwedForward f = new OwedForward(r);
        f.forward(Y); // the forward elsewhere
        f.owe(X);
        f.vjp(X, Map.of("y", Nd4j.ones(2)), List.of("x"));
        assertEquals(List.of("forward [2.0, 3.0]", "forward [0.5, -1.0]", "vjp after [0.5, -1.0]"), r.calls);
        f.vjp(X, Map.of("y", Nd4j.ones(2)), List.of("x"));
        assertEquals("vjp after [0.5, -1.0]", r.calls.get(3), "paid once");
        assertEquals(4, r.calls.size());
    }

    @Test
    void aForwardFirstCancelsTheDebt() {
        Recorder r = new Recorder();
        OwedForward f = new OwedForward(r);
        f.owe(X);
        f.forwardTransient(Y);
        f.vjp(Y, Map.of("y", Nd4j.ones(2)), List.of("x"));
        assertEquals(List.of("forward [2.0, 3.0]", "vjp after [2.0, 3.0]"), r.calls);
    }

    @Test
    void theOwedPointIsACopyTheCallerMayChange() {
        Recorder r = new Recorder();
        OwedForward f = new OwedForward(r);
        Map<String, INDArray> x = Map.of("x", Nd4j.createFromArray(0.5, -1.0));
        f.owe(x);
        x.get("x").putScalar(0, 7.0); // perturbed in place, as the numerical side does
        f.vjp(x, Map.of("y", Nd4j.ones(2)), List.of("x"));
        assertEquals("forward [0.5, -1.0]", r.calls.get(0));
    }

    /**
     * A backward that reads the outputs the last forward cached (tanh′ from the cached y) fails determinism in both
     * modes, named as such; fast mode, whose first calls are forwards, never pays the forward at x.
     */
    @ParameterizedTest
    @ValueSource(strings = {"fast", "full"})
    void aBackwardReadingTheLastForwardsOutputsStillFailsDeterminism(String mode) {
        String yaml = "op: tanh\nmode: " + mode + "\ninputs:\n  x: {shape: [5, 7], init: {uniform: [-2, 2]}}\n";
        CheckResult r = new GradientChecker((spec, in) -> new CachingTanh(RealOps.BUILDER.build(spec, in)), "cpu")
                .check(Specs.parse(yaml));
        assertEquals(Status.FAILED, r.status(), r.toString());
        GradientResult row = r.gradients().stream().filter(g -> g.kind() == CheckKind.DETERMINISM).findFirst()
                .orElseThrow();
        assertEquals(Verdict.NONDETERMINISTIC, row.verdict());
        assertTrue(row.note().contains("after a forward at another point"), row.note());
        assertEquals(Verdict.PASS, r.gradients().stream().filter(g -> g.kind() == CheckKind.LINEARITY).findFirst()
                .orElseThrow().verdict(), "linearity runs at the state a forward at x leaves: " + r);
    }

    @Test
    void fastModeMakesNoForwardAtXAfterTheForwardElsewhere() {
        List<String> calls = new ArrayList<>();
        String yaml = "op: tanh\nmode: fast\ninputs:\n  x: {shape: [5, 7], init: {uniform: [-2, 2]}}\n";
        CheckResult r = new GradientChecker((spec, in) -> new Functions.Delegate(RealOps.BUILDER.build(spec, in)) {
            @Override
            public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
                calls.add("forward");
                return super.forward(inputs);
            }
        }, "cpu").check(Specs.parse(yaml));
        assertEquals(Status.PASSED, r.status(), r.toString());
        // at x (input mutation), elsewhere (determinism), x ± h·u (the projection): none owed is paid
        assertEquals(4, calls.size(), calls.toString());
        assertEquals(4, r.calls().forward());
    }

    /** Records its calls; a backward says which point the last forward was at. */
    private static final class Recorder implements Differentiable {
        final List<String> calls = new ArrayList<>();
        private String last = "none";

        @Override
        public List<String> inputNames() {
            return List.of("x");
        }

        @Override
        public List<String> outputNames() {
            return List.of("y");
        }

        @Override
        public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
            last = java.util.Arrays.toString(inputs.get("x").toDoubleVector());
            calls.add("forward " + last);
            return Map.of("y", inputs.get("x").dup());
        }

        @Override
        public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
            calls.add("vjp after " + last);
            return Map.of("x", ct.get("y").dup());
        }
    }

    /** tanh whose backward uses the output its last forward cached instead of its arguments. */
    private static final class CachingTanh extends Functions.Delegate {
        private INDArray cached;

        CachingTanh(Differentiable f) {
            super(f);
        }

        @Override
        public Map<String, INDArray> forward(Map<String, INDArray> in) {
            Map<String, INDArray> y = super.forward(in);
            cached = y.values().iterator().next().dup();
            return y;
        }

        @Override
        public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
            Map<String, INDArray> g = new LinkedHashMap<>();
            INDArray c = ct.values().iterator().next();
            g.put(wrt.get(0), c.mul(cached.mul(cached).rsub(1.0)));
            return g;
        }
    }
}
