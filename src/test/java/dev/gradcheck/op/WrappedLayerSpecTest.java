package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.SpecLoader;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Layers that wrap another (the wrapped layer a mapping with its own type and options), and DL4J's SameDiff-defined
 * layers, whose configurations DL4J's JSON cannot write from their defaults.
 */
class WrappedLayerSpecTest {

    private static CheckResult check(String yaml) {
        return LayerChecks.check(yaml);
    }

    private static Set<String> checked(CheckResult r) {
        return r.gradients().stream().filter(g -> g.kind() == CheckKind.JACOBIAN).map(GradientResult::input)
                .collect(Collectors.toSet());
    }

    private static Set<String> failing(CheckResult r) {
        return r.gradients().stream().filter(g -> g.kind() == CheckKind.JACOBIAN && g.verdict() != Verdict.PASS)
                .map(GradientResult::input).collect(Collectors.toSet());
    }

    @Test
    void bidirectionalsRnnLayerIsBothDirectionsAndEveryParameterIsChecked() {
        CheckResult r = check("""
                name: bidi
                layer: {type: Bidirectional, mode: CONCAT, rnnLayer: {type: SimpleRnn, nOut: 2, activation: tanh}}
                inputs:
                  x: {shape: [2, 3, 4]}
                """);
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(Set.of("x", "fW", "fRW", "fb", "bW", "bRW", "bb"), checked(r));
    }

    /** A wrong wrapped layer is caught through its wrapper: the wrapper's backward is the wrapped one's. */
    @Test
    void aWrongWrappedLayerFailsThroughItsWrapper() {
        String spec = """
                name: frozen
                layer:
                  type: FrozenLayerWithBackprop
                  underlying: {type: %s, flaw: %s, nOut: 2, kernelSize: [3, 3], activation: tanh}
                inputs:
                  x: {shape: [1, 2, 5, 5]}
                """;
        CheckResult right = check(spec.formatted(WrongConvolution.class.getName(), "none"));
        assertEquals(Status.PASSED, right.status(), right::message);
        assertEquals(Set.of("x"), checked(right)); // frozen: its parameters get no gradient, so none is checked
        CheckResult wrong = check(spec.formatted(WrongConvolution.class.getName(), "input"));
        assertEquals(Set.of("x"), failing(wrong));
    }

    @Test
    void aWrappedLayersMistakesAreInvalidWhereTheyAre() {
        var noType = new SpecLoader().loadText("layer.yaml", "layer", """
                name: w
                layer: {type: LastTimeStep, underlying: {nOut: 2}}
                inputs:
                  x: {shape: [2, 3, 4]}
                """).get(0);
        assertTrue(noType.errors().toString().contains("layer.yaml:2:41: 'layer.underlying' is missing required key"
                + " 'type'"), noType.errors()::toString);
        CheckResult typo = check("""
                name: w
                layer: {type: LastTimeStep, underlying: {type: LSTM, nOot: 2}}
                inputs:
                  x: {shape: [2, 3, 4]}
                """);
        assertEquals(Status.INVALID, typo.status());
        assertTrue(typo.message().startsWith("layer.yaml:2:60: LSTM: DL4J cannot read unknown option 'nOot' (did"
                + " you mean 'nout'?)"), typo.message());
    }

    /**
     * A SameDiff-defined layer is built as a network builds it (its sizes set from the input's type, its parameters
     * of those sizes), and its enum-typed activation read by name; its backward returns exactly twice the
     * derivative of its forward (docs/dl4j-findings.md), which the check reports at the worst element.
     */
    @Test
    void sameDiffDefinedLayersAreBuiltAndTheirDoubledGradientFound() {
        CheckResult r = check("""
                name: lc
                layer: {type: LocallyConnected1D, nOut: 2, kernel: 2, stride: 1, padding: 0, dilation: 1,
                        activation: tanh}
                inputs:
                  x: {shape: [1, 2, 3]}
                """);
        assertEquals(Status.FAILED, r.status(), r::message);
        assertEquals(Set.of("x", "W", "b"), failing(r));
        for (GradientResult g : r.gradients()) {
            if (g.kind() == CheckKind.JACOBIAN) {
                assertEquals(2.0, g.worst().analytic() / g.worst().numerical(), 1e-6, g.input());
            }
        }
    }

    /** RecurrentAttentionLayer's activation is an Activation, not the IActivation other layers hold: by name. */
    @Test
    void anEnumActivationIsReadByName() throws Exception {
        var spec = new SpecLoader().loadText("layer.yaml", "layer", """
                name: ra
                layer: {type: RecurrentAttentionLayer, nOut: 2, nHeads: 1, projectInput: false, activation: tanh}
                inputs:
                  x: {shape: [1, 2, 3]}
                """).get(0).spec();
        var config = (org.deeplearning4j.nn.conf.layers.RecurrentAttentionLayer) LayerConfigs.read(spec.layer(),
                getClass().getClassLoader());
        assertEquals(org.nd4j.linalg.activations.Activation.TANH, config.getActivation());
    }

    @Test
    void aLayerDl4jCannotRunEndsAsTheErrorASpecExpects() {
        CheckResult r = check("""
                name: learned
                layer: {type: LearnedSelfAttentionLayer, nOut: 4, nHeads: 1, nQueries: 2, projectInput: false}
                inputs:
                  x: {shape: [2, 4, 5]}
                expect: error
                reason: scatter_update fails
                """);
        assertEquals(Status.EXPECTED_ERROR, r.status(), r::message);
        assertTrue(r.message().contains("scatter_update"), r.message());
        assertEquals(List.of(), r.gradients());
    }
}
