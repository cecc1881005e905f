package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Fast mode's one backward pass is the determinism row's first where their cotangents are the same: handed out only
 * once determinism held, once, to the same call. A backward wrong on that first call still fails determinism, and
 * the mode then makes its own pass; a backward wrong on every call still fails the fast row.
 */
class KeptBackwardTest {

    private static final String TANH_FAST = "op: tanh\nmode: fast\ninputs:\n  x: {shape: [5, 7], init: {uniform: [-2,"
            + " 2]}}\n";

    @Test
    void theRecordedPassIsHandedOutOnceToTheSameCallAfterItWasJudged() {
        AtomicInteger calls = new AtomicInteger();
        KeptBackward f = new KeptBackward(counting(calls));
        Map<String, INDArray> x = Map.of("x", Nd4j.createFromArray(0.5, -1.0));
        Map<String, INDArray> ct = Map.of("y", Nd4j.createFromArray(1.0, 2.0));
        f.recordNext();
        INDArray first = f.vjpTransient(x, ct, List.of("x")).get("x").dup();
        f.vjpTransient(x, ct, List.of("x")); // determinism's second pass: made, not handed out
        assertEquals(2, calls.get());
        f.handOut(true);
        f.vjpTransient(x, Map.of("y", Nd4j.createFromArray(1.0, 3.0)), List.of("x"));
        assertEquals(3, calls.get(), "other cotangents: a call of its own");
        assertEquals(first, f.vjpTransient(x, Map.of("y", Nd4j.createFromArray(1.0, 2.0)), List.of("x")).get("x"));
        assertEquals(3, calls.get(), "the same call: handed the kept pass");
        f.vjpTransient(x, ct, List.of("x"));
        assertEquals(4, calls.get(), "handed out once");
    }

    @Test
    void aPassDeterminismDidNotHoldIsNeverHandedOut() {
        AtomicInteger calls = new AtomicInteger();
        KeptBackward f = new KeptBackward(counting(calls));
        Map<String, INDArray> x = Map.of("x", Nd4j.createFromArray(0.5, -1.0));
        Map<String, INDArray> ct = Map.of("y", Nd4j.createFromArray(1.0, 2.0));
        f.recordNext();
        f.vjpTransient(x, ct, List.of("x"));
        f.handOut(false);
        f.vjpTransient(x, ct, List.of("x"));
        assertEquals(2, calls.get());
    }

    @Test
    void aFastCheckMakesNoBackwardPassOfItsOwnWhereDeterminismHeld() {
        CheckResult r = RealOps.check(TANH_FAST);
        assertEquals(Status.PASSED, r.status(), r.toString());
        // determinism 2 at x and −2^10·v elsewhere, linearity 3, zero-grad 1: the projection's is determinism's first
        assertEquals(7, r.calls().backward(), r.calls().toString());
    }

    @Test
    void aBackwardWrongOnItsFirstCallFailsDeterminismAndTheModeMakesItsOwnPass() {
        CheckResult r = check(f -> new Functions.Delegate(f) {
            private boolean called;

            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                Map<String, INDArray> g = new LinkedHashMap<>(f.vjp(in, ct, wrt));
                if (!called) {
                    called = true;
                    g.replaceAll((k, v) -> v.mul(1.01));
                }
                return g;
            }
        });
        assertEquals(Status.FAILED, r.status());
        assertEquals(Verdict.NONDETERMINISTIC, row(r, CheckKind.DETERMINISM).verdict());
        assertEquals(Verdict.PASS, row(r, CheckKind.FAST).verdict(), "its own pass, the right one: " + r);
    }

    @Test
    void aBackwardWrongOnEveryCallFailsTheFastRowOnTheKeptPass() {
        CheckResult r = check(f -> Functions.withBackward(f, Functions.scaledBy(1.01)));
        assertEquals(Status.FAILED, r.status());
        assertEquals(Verdict.PASS, row(r, CheckKind.DETERMINISM).verdict());
        // the fast row failed on the kept pass and gave way to the full recheck, which says what fast mode found
        GradientResult block = row(r, CheckKind.JACOBIAN);
        assertEquals(Verdict.MISMATCH, block.verdict(), block.toString());
        assertTrue(block.note().contains("fast mode"), block.note());
    }

    private static CheckResult check(java.util.function.UnaryOperator<Differentiable> wrong) {
        return new GradientChecker((spec, in) -> wrong.apply(RealOps.BUILDER.build(spec, in)), "cpu")
                .check(Specs.parse(TANH_FAST));
    }

    private static GradientResult row(CheckResult r, CheckKind kind) {
        return r.gradients().stream().filter(g -> g.kind() == kind).findFirst().orElseThrow();
    }

    private static Differentiable counting(AtomicInteger calls) {
        return new Differentiable() {
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
                return Map.of("y", inputs.get("x").dup());
            }

            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                calls.incrementAndGet();
                return Map.of("x", ct.get("y").mul(calls.get()));
            }
        };
    }
}
