package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Wrong backwards are still caught when the op runs on the direct executor (compiled, not SameDiff's session):
 * ND4J's own wrong backwards from the spec suite, and a correct backward corrupted by the test. Every function the
 * checker builds here must have run compiled, or the test would prove nothing about the direct path.
 */
class DirectPathTest {

    private final Nd4jOpBuilder direct = new Nd4jOpBuilder(OpCatalog.nd4j()).withExecutor(Nd4jOpBuilder.Executor.DIRECT);
    private final List<Differentiable> built = new ArrayList<>();

    /** Builds with the direct executor and keeps what it built, to ask afterwards whether it ran compiled. */
    private final FunctionFactory recording = (spec, inputs) -> {
        Differentiable f = direct.build(spec, inputs);
        built.add(f);
        return f;
    };

    private void assertEverythingRanCompiled() {
        assertTrue(!built.isEmpty(), "the checker built something");
        for (Differentiable f : built) {
            Optional<String> why = Nd4jOpBuilder.sessionUse(f);
            assertTrue(why.isEmpty(), "ran in SameDiff's session: " + why.orElse(""));
        }
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource({
        "specs/binary/minmax_pow.yaml, maximum-broadcast-no-ties",
        "specs/binary/pairwise.yaml, mod-away-from-jumps",
        "specs/binary/pairwise.yaml, cross-rows",
        "specs/linalg/matrix.yaml, matrix-inverse-batch",
        "specs/reductions/reduce.yaml, var-rank3-population",
        "specs/reductions/cumulative.yaml, cumsum-axis1",
        "specs/shape/shape.yaml, pad-reflect",
        "specs/losses/losses.yaml, mean-sqerr-loss-none",
    })
    void ndFourJsOwnWrongBackwardsStillFail(String file, String name) throws Exception {
        OpSpec spec = load(file, name);
        CheckResult r = new GradientChecker(recording, "cpu").check(spec);
        assertEquals(Status.EXPECTED_FAIL, r.status(), "the known ND4J bug is found: " + r);
        assertEverythingRanCompiled();
    }

    @Test
    void aCorruptedBackwardOfACompiledOpFails() {
        OpSpec spec = Specs.parse("""
                op: softmax
                attrs: {dimension: 1}
                inputs:
                  x: {shape: [3, 4], init: {uniform: [-2, 2]}}
                """);
        FunctionFactory rolled = (s, in) -> Functions.withBackward(recording.build(s, in), Functions.rolled());
        CheckResult r = new GradientChecker(rolled, "cpu").check(spec);
        assertEquals(Status.FAILED, r.status(), r.toString());
        FunctionFactory scaled = (s, in) -> Functions.withBackward(recording.build(s, in),
                Functions.scaledBy(1 + 1e-3));
        CheckResult s = new GradientChecker(scaled, "cpu").check(spec);
        assertEquals(Status.FAILED, s.status(), s.toString());
        assertEquals(1e-3, s.gradients().get(0).maxRelError(), 1e-6);
        assertEverythingRanCompiled();
    }

    @Test
    void theSameCorrectOpPassesOnBothExecutors() {
        OpSpec spec = Specs.parse("""
                op: matmul
                inputs:
                  a: {shape: [3, 4]}
                  b: {shape: [4, 2]}
                """);
        CheckResult compiled = new GradientChecker(recording, "cpu").check(spec);
        Nd4jOpBuilder session = direct.withExecutor(Nd4jOpBuilder.Executor.SAMEDIFF);
        CheckResult inSession = new GradientChecker(session::build, "cpu").check(spec);
        assertEquals(Status.PASSED, compiled.status(), compiled.toString());
        for (int i = 0; i < compiled.gradients().size(); i++) {
            assertEquals(inSession.gradients().get(i).maxAbsError(), compiled.gradients().get(i).maxAbsError(),
                    "the same numbers, to the last bit");
        }
        assertEverythingRanCompiled();
    }

    private static OpSpec load(String file, String name) throws Exception {
        for (LoadedSpec l : new SpecLoader().load(Path.of(file))) {
            if (l.name().equals(name)) {
                return l.specOrThrow();
            }
        }
        throw new IllegalArgumentException("no spec " + name + " in " + file);
    }
}
