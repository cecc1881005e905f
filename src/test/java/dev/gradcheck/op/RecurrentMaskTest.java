package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A recurrent layer's mask as a spec input ({@code mask}, [batch, steps], as DL4J's setMaskArray takes it): never
 * checked itself; DL4J's layers pass with it, and a backward that forgets the mask its forward applied fails.
 */
class RecurrentMaskTest {

    private static final String SPEC = """
            name: masked
            layer: {type: %s, nOut: 3, activation: tanh}
            inputs:
              x: {shape: [2, 4, 5]}
              mask: {shape: [2, 5], init: {values: [[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]}}
            """;

    private static CheckResult check(String yaml) {
        return LayerChecks.check(yaml);
    }

    private static Set<String> rows(CheckResult r, boolean failing) {
        return r.gradients().stream().filter(g -> g.kind() == CheckKind.JACOBIAN)
                .filter(g -> !failing || g.verdict() != Verdict.PASS).map(GradientResult::input)
                .collect(Collectors.toSet());
    }

    @Test
    void simpleRnnPassesWithAMaskThatIsNeverChecked() {
        CheckResult r = check(SPEC.formatted("SimpleRnn"));
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(Set.of("x", "W", "RW", "b"), rows(r, false), "the mask is no row");
    }

    /**
     * DL4J's LSTM zeroes its output at masked steps but backpropagates the gradient those steps receive
     * (docs/dl4j-findings.md): every gradient mismatches there, and only there (sample 1, steps 3-4).
     */
    @Test
    void lstmsBackwardDoesNotMaskTheGradientItReceives() {
        CheckResult r = check(SPEC.formatted("LSTM"));
        assertEquals(Status.FAILED, r.status(), r::message);
        assertEquals(Set.of("x", "W", "RW", "b"), rows(r, true));
        for (GradientResult g : r.gradients()) {
            if (g.kind() == CheckKind.JACOBIAN) {
                assertEquals(List.of("1", ":", "3-4"), g.mismatches().region().output(), g.input());
            }
        }
    }

    @Test
    void aBackwardThatForgetsTheMaskFails() {
        CheckResult r = check(SPEC.formatted(MaskIgnoringRnn.class.getName()));
        assertEquals(Status.FAILED, r.status(), r::message);
        assertTrue(rows(r, true).contains("x"), rows(r, true)::toString);
        CheckResult unmasked = check(SPEC.formatted(MaskIgnoringRnn.class.getName()).replaceAll("  mask: .*\\n", ""));
        assertEquals(Status.PASSED, unmasked.status(), "without a mask the same layer is right: " + unmasked.message());
    }

    /** Said before DL4J runs: at the mask's place in the file (spec.MaskInputs). */
    @Test
    void aMaskOfTheWrongShapeIsInvalidAtItsPlace() {
        var loaded = new dev.gradcheck.spec.SpecLoader().loadText("layer.yaml", "layer", SPEC.formatted("SimpleRnn")
                .replace("mask: {shape: [2, 5], init: {values: [[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]}}",
                        "mask: {shape: [2, 3], init: {constant: 1}}")).get(0);
        assertEquals(List.of("layer.yaml:5:3: mask 'mask' has shape [2, 3]; masking 'x' [2, 4, 5] it is [batch,"
                + " steps]: [2, 5 (or 4 in NWC)]"), loaded.errors().stream().map(Object::toString).toList());
    }
}
