package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A saved SameDiff model's whole gradient in fast mode: its output y as a function of its trainable variables
 * (x [3, 2] placeholder -> matmul w -> tanh -> cumprod, when asked -> multiply by v), rows named by variable; a
 * wrong op's backward fails the rows of the variables before it; check and no_grad honoured or INVALID.
 */
class SameDiffWholeModelTest {

    @TempDir
    Path dir;

    private static final String X = "  x: {shape: [3, 2], init: {uniform: [-1.5, 1.5]}}\n";

    /** The whole model's rows (output y by a variable), by variable: the worst verdict of its fast and full rows. */
    private static Map<String, Verdict> wholeRows(CheckResult r) {
        Map<String, Verdict> rows = new TreeMap<>();
        for (GradientResult g : r.gradients()) {
            if (g.output().equals("y") && (g.kind() == CheckKind.FAST || g.kind() == CheckKind.JACOBIAN)
                    && !g.input().equals("c") && !g.input().equals("h")) {
                rows.merge(g.input(), g.verdict(), (a, b) -> a == Verdict.PASS ? b : a);
            }
        }
        return rows;
    }

    @Test
    void aRightModelsWholeGradientPassesForEveryVariable() throws Exception {
        SameDiffModelSpecTest.saveModel(dir, false);
        CheckResult r = SameDiffModelSpecTest.check(dir, X + "mode: fast\n");
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(Map.of("w", Verdict.PASS, "v", Verdict.PASS), wholeRows(r));
    }

    @Test
    void aWrongOpFailsTheRowsOfTheVariablesBeforeIt() throws Exception {
        SameDiffModelSpecTest.saveModel(dir, true); // ND4J's cumprod backward is wrong (docs/nd4j-findings.md)
        CheckResult r = SameDiffModelSpecTest.check(dir, X + "mode: fast\n");
        assertEquals(Status.FAILED, r.status(), r::message);
        Map<String, Verdict> rows = wholeRows(r);
        assertTrue(rows.get("w") != Verdict.PASS, rows::toString); // w reaches y through cumprod
        assertEquals(Verdict.PASS, rows.get("v"), rows::toString); // y = c * v: dy/dv needs no cumprod backward
    }

    @Test
    void checkAndNoGradChooseTheVariables() throws Exception {
        SameDiffModelSpecTest.saveModel(dir, false);
        CheckResult onlyV = SameDiffModelSpecTest.check(dir, X + "mode: fast\ncheck: [v]\n");
        assertEquals(Status.PASSED, onlyV.status(), onlyV::message);
        assertEquals(Map.of("v", Verdict.PASS), wholeRows(onlyV));
        CheckResult noW = SameDiffModelSpecTest.check(dir, X + "mode: fast\nno_grad: [w]\n");
        assertEquals(Map.of("v", Verdict.PASS), wholeRows(noW));
        assertTrue(noW.gradients().stream().noneMatch(g -> g.input().equals("w")), "no node checks w either");
    }

    @Test
    void aSelectionThatCannotBeHonouredIsInvalidAtTheName() throws Exception {
        SameDiffModelSpecTest.saveModel(dir, false);
        CheckResult full = SameDiffModelSpecTest.check(dir, X + "check: [w]\n");
        assertEquals(Status.INVALID, full.status());
        assertTrue(full.message().contains("model.yaml:5:9: check chooses the variables of the model's whole"
                + " gradient, which only fast mode takes"), full::message);
        CheckResult unknown = SameDiffModelSpecTest.check(dir, X + "mode: fast\nno_grad: [vv]\n");
        assertEquals(Status.INVALID, unknown.status());
        assertTrue(unknown.message().contains("model.yaml:6:11: 'vv' is neither a placeholder nor a trainable"
                + " variable of the model (its variables: v, w); did you mean 'v'?"), unknown::message);
        CheckResult placeholder = SameDiffModelSpecTest.check(dir, X + "mode: fast\ncheck: [x, v]\n");
        assertEquals(Status.INVALID, placeholder.status());
        assertTrue(placeholder.message().contains("check names the placeholder(s) [x]"), placeholder::message);
    }
}
