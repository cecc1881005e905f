package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.backend.InProcessBackend;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;
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

    @Test
    void aStackOverflowInBackwardIsAnOperatorErrorNamingTheOpAndItsSource() {
        CheckResult r = check("test_recurses_backward", "");
        assertEquals(Status.ERROR, r.status());
        assertTrue(r.message().contains("plugin op 'test_recurses_backward' (from " + dir.resolve("ops.jar") + ")")
                && r.message().contains("threw in backward") && r.message().contains("StackOverflowError"),
                r.message());
    }
}
