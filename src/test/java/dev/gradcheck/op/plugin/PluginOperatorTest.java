package dev.gradcheck.op.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.backend.nd4j.InProcessBackend;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.SpecLoader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plugin ops checked by the real checker: a correct one passes, broken ones end as clear operator errors. */
class PluginOperatorTest {

    @TempDir
    static Path dir;

    static InProcessBackend backend;

    @BeforeAll
    static void load() throws IOException, PluginException {
        Path jar = PluginJars.jar(PluginJars.allClasses(dir), dir.resolve("ops.jar"));
        backend = InProcessBackend.withPlugins(Engine.CPU, PluginLoader.load(List.of(jar)), MemoryBudget.forThisJvm());
    }

    private static CheckResult check(String op, String extra) {
        String yaml = "op: " + op + "\n" + extra + "inputs:\n  x: {shape: [2, 3], init: {uniform: [0.5, 2]}}\n";
        try {
            return backend.run(new SpecLoader().loadText("test.yaml", "test", yaml).get(0).specOrThrow());
        } catch (InvalidSpecException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void aCorrectPluginPassesWithItsAttributes() {
        CheckResult r = check("test_square", "attrs: {scale: 3}\n");
        assertEquals(Status.PASSED, r.status(), r.toString());
        assertEquals("dy/dx", "d" + r.gradients().get(0).output() + "/d" + r.gradients().get(0).input());
        // the attribute reached both passes: d(3x²)/dx = 6x, so the worst element's gradient is 6x
        assertTrue(Math.abs(r.gradients().get(0).worst().numerical()) > 2.9, r.toString());
    }

    @Test
    void aPluginThrowingInForwardIsAnOperatorErrorNamingIt() {
        CheckResult r = check("test_throws_forward", "");
        assertEquals(Status.ERROR, r.status());
        assertTrue(r.message().contains("plugin op 'test_throws_forward'") && r.message().contains("threw in forward")
                && r.message().contains("IllegalStateException: forward exploded"), r.message());
    }

    @Test
    void aPluginThrowingInBackwardIsAnOperatorErrorNamingIt() {
        CheckResult r = check("test_throws_backward", "");
        assertEquals(Status.ERROR, r.status());
        assertTrue(r.message().contains("plugin op 'test_throws_backward'")
                && r.message().contains("threw in backward")
                && r.message().contains("ArithmeticException: backward exploded"), r.message());
    }

    @Test
    void anExpectedErrorOfAPluginStaysExpected() {
        CheckResult r = check("test_throws_backward", "expect: error\nreason: known to throw\n");
        assertEquals(Status.EXPECTED_ERROR, r.status());
    }

    @Test
    void aGradientOfTheWrongShapeIsAClearError() {
        CheckResult r = check("test_wrong_gradient_shape", "");
        assertEquals(Status.ERROR, r.status());
        assertTrue(r.message().contains("plugin op 'test_wrong_gradient_shape'")
                && r.message().contains("backward returned a gradient of shape [6] for input 'x' of shape [2, 3]"),
                r.message());
    }

    @Test
    void aMissingOutputIsAClearError() {
        CheckResult r = check("test_missing_output", "");
        assertEquals(Status.ERROR, r.status());
        assertTrue(r.message().contains("forward returned no output 'y' (it returned z)"), r.message());
    }

    @Test
    void aSpecGivingOtherInputsOrAttributesIsInvalidWithPositions() {
        String yaml = """
                op: test_square
                attrs: {scal: 2}
                inputs:
                  z: {shape: [3]}
                """;
        CheckResult r;
        try {
            r = backend.run(new SpecLoader().loadText("bad.yaml", "bad", yaml).get(0).specOrThrow());
        } catch (InvalidSpecException e) {
            throw new IllegalArgumentException(e);
        }
        assertEquals(Status.INVALID, r.status());
        List<String> lines = r.message().lines().toList();
        assertEquals(3, lines.size(), r.message());
        assertTrue(lines.get(0).startsWith("bad.yaml:4:3: plugin op 'test_square' has no input 'z'"), lines.get(0));
        assertTrue(lines.get(1).startsWith("bad.yaml:1:5: plugin op 'test_square' needs input 'x'"), lines.get(1));
        assertTrue(lines.get(2).startsWith("bad.yaml:2:15: plugin op 'test_square' has no attribute 'scal' (did you"
                + " mean 'scale'?)"), lines.get(2));
    }

    // ---- blind spots of the copies contract: each must fail ----

    private static GradientResult row(CheckResult r, CheckKind kind) {
        return r.rowsOf(kind).get(0);
    }

    @Test
    void aForwardThatChangesItsInputInPlaceFails() {
        CheckResult r = check("test_mutates_input_forward", "");
        assertEquals(Status.FAILED, r.status(), r.toString());
        GradientResult mutation = row(r, CheckKind.INPUT_MUTATION);
        assertEquals(Verdict.INPUT_MUTATED, mutation.verdict());
        assertEquals("x", mutation.input());
        assertTrue(mutation.note().contains("forward changed its input 'x' in place (x[0, 0] was "), mutation.note());
        assertEquals(Verdict.PASS, row(r, CheckKind.JACOBIAN).verdict(), "its gradient is right: only the mutation");
    }

    @Test
    void aBackwardThatChangesItsInputInPlaceFails() {
        CheckResult r = check("test_mutates_input_backward", "");
        assertEquals(Status.FAILED, r.status(), r.toString());
        GradientResult mutation = row(r, CheckKind.INPUT_MUTATION);
        assertEquals(Verdict.INPUT_MUTATED, mutation.verdict());
        assertTrue(mutation.note().contains("backward changed its input 'x' in place"), mutation.note());
    }

    @Test
    void aBackwardThatChangesItsOutputGradientInPlaceFails() {
        CheckResult r = check("test_mutates_gradient_backward", "");
        assertEquals(Status.FAILED, r.status(), r.toString());
        GradientResult mutation = row(r, CheckKind.INPUT_MUTATION);
        assertEquals(Verdict.INPUT_MUTATED, mutation.verdict());
        assertEquals("y", mutation.output(), "the output whose gradient it changed");
        assertTrue(mutation.note().contains("backward changed its output gradient 'y' in place"), mutation.note());
    }

    @Test
    void aBackwardReadingOutputsCachedByTheLastForwardFails() {
        CheckResult r = check("test_caching_exp", "");
        assertEquals(Status.FAILED, r.status(), r.toString());
        GradientResult determinism = row(r, CheckKind.DETERMINISM);
        assertEquals(Verdict.NONDETERMINISTIC, determinism.verdict());
        assertTrue(determinism.note().contains("after a forward at another point: it reads state the last forward"
                + " left behind"), determinism.note());
        CheckResult correct = check("test_exp", "");
        assertEquals(Status.PASSED, correct.status(), "the same op reading the outputs it is given: " + correct);
    }

    @Test
    void aGradientForAnIntegerInputIsAnErrorNotDropped() {
        CheckResult r = run("""
                op: test_index_gradient
                inputs:
                  x: {shape: [2, 3], init: {uniform: [0.5, 2]}}
                  idx: {shape: [2], dtype: int32, init: {values: [0, 1]}}
                """);
        assertEquals(Status.ERROR, r.status(), r.toString());
        assertTrue(r.message().contains("plugin op 'test_index_gradient'") && r.message().contains("backward"
                + " returned a gradient for input 'idx', which is int32 and has no gradient"), r.message());
    }

    @Test
    void aPluginsAttributesLeftOutAreNamed() {
        assertEquals(List.of("scale"), check("test_square", "").defaultedAttributes());
        assertEquals(List.of(), check("test_square", "attrs: {scale: 2}\n").defaultedAttributes());
    }

    private static CheckResult run(String yaml) {
        try {
            return backend.run(new SpecLoader().loadText("test.yaml", "test", yaml).get(0).specOrThrow());
        } catch (InvalidSpecException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void aStackOverflowInBackwardIsAnOperatorErrorNamingTheOpAndItsSource() {
        CheckResult r = check("test_recurses_backward", "");
        assertEquals(Status.ERROR, r.status());
        assertTrue(r.message().contains("plugin op 'test_recurses_backward' (from " + dir.resolve("ops.jar") + ")")
                && r.message().contains("threw in backward") && r.message().contains("StackOverflowError"),
                r.message());
    }
}
