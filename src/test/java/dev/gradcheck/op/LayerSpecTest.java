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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A DL4J layer as a spec: its input gradient and every parameter gradient checked against its forward, a wrong
 * hand-written backward named by the gradient that is wrong, and DL4J's refusals INVALID at the option.
 */
class LayerSpecTest {

    private static final String CONV = """
            name: conv
            layer:
              type: %s
              nOut: 4
              kernelSize: [3, 3]
              activation: tanh%s
            inputs:
              x: {shape: [2, 3, 6, 6]}
            %s
            """;

    private static CheckResult check(String yaml) {
        return LayerChecks.check(yaml);
    }

    private static Set<String> failing(CheckResult r) {
        return r.gradients().stream().filter(g -> g.kind() == CheckKind.JACOBIAN && g.verdict() != Verdict.PASS)
                .map(GradientResult::input).collect(Collectors.toSet());
    }

    private static Set<String> checked(CheckResult r) {
        return r.gradients().stream().filter(g -> g.kind() == CheckKind.JACOBIAN).map(GradientResult::input)
                .collect(Collectors.toSet());
    }

    @Test
    void dl4jsConvolutionLayerPassesOnItsInputAndEveryParameter() {
        CheckResult r = check(CONV.formatted("ConvolutionLayer", "", ""));
        assertEquals(Status.PASSED, r.status(), r::message);
        assertEquals(Set.of("x", "W", "b"), checked(r));
    }

    @Test
    void theRightCustomLayerPasses() {
        CheckResult r = check(CONV.formatted(WrongConvolution.class.getName(), "\n  flaw: none", ""));
        assertEquals(Status.PASSED, r.status(), r::message);
    }

    @ParameterizedTest
    @ValueSource(strings = {"full", "fast"})
    void aWrongWeightGradientFailsNamingW(String mode) {
        CheckResult r = check(CONV.formatted(WrongConvolution.class.getName(), "\n  flaw: weights",
                "mode: " + mode));
        assertEquals(Status.FAILED, r.status(), r::message);
        assertEquals(Set.of("W"), failing(r));
    }

    @Test
    void aZeroedBiasGradientFailsNamingB() {
        CheckResult r = check(CONV.formatted(WrongConvolution.class.getName(), "\n  flaw: bias", ""));
        assertEquals(Set.of("b"), failing(r));
    }

    /** Without compression (every column of the Jacobian its own evaluation) the same gradient is named. */
    @Test
    void aTransposedInputGradientFailsNamingTheInputCompressedOrDense() {
        for (String compress : List.of("true", "false")) {
            CheckResult r = check(CONV.formatted(WrongConvolution.class.getName(), "\n  flaw: input",
                    "compress: " + compress));
            assertEquals(Set.of("x"), failing(r), "compress: " + compress);
        }
    }

    @Test
    void noGradAndCheckNameParameters() {
        assertEquals(Set.of("x", "W"), checked(check(CONV.formatted("ConvolutionLayer", "", "no_grad: [b]"))));
        assertEquals(Set.of("b"), checked(check(CONV.formatted("ConvolutionLayer", "", "check: [b]"))));
    }

    @Test
    void dl4jsRefusalsAreInvalidAtTheOption() {
        CheckResult typo = check(CONV.formatted("ConvolutionLayer", "\n  kernalSize: [2, 2]", ""));
        assertEquals(Status.INVALID, typo.status());
        assertTrue(typo.message().startsWith("layer.yaml:7:15: ConvolutionLayer: DL4J cannot read unknown option"
                + " 'kernalSize' (did you mean 'kernelSize'?)"), typo.message());

        CheckResult channels = check(CONV.formatted("ConvolutionLayer", "\n  nIn: 5", ""));
        assertEquals(Status.INVALID, channels.status());
        assertTrue(channels.message().startsWith("layer.yaml:3:9: DL4J's ConvolutionLayer rejects an input of shape"
                + " [2, 3, 6, 6]"), channels.message());

        CheckResult unknown = check(CONV.formatted("ConvolutionLayr", "", ""));
        assertTrue(unknown.message().contains("unknown DL4J layer 'ConvolutionLayr' (did you mean"
                + " 'ConvolutionLayer'?)"), unknown.message());

        CheckResult param = check(CONV.formatted("ConvolutionLayer", "", "no_grad: [B]"));
        assertEquals(Status.INVALID, param.status());
        assertTrue(param.message().contains("no_grad names 'B', which is neither an input nor a parameter of"
                + " ConvolutionLayer (parameters: b, W)"), param.message());
    }

    /**
     * An output layer's score against its labels: softmax with MCXENT passes on one-hot labels and fails on labels
     * that do not sum to 1 (DL4J's p - y shortcut); without labels the spec is INVALID, saying why.
     */
    @Test
    void anOutputLayersScoreIsCheckedAgainstItsLabels() {
        String spec = """
                name: out
                layer: {type: OutputLayer, nOut: 3, activation: softmax, lossFunction: MCXENT}
                inputs:
                  x: {shape: [2, 4]}
                %s
                """;
        CheckResult oneHot = check(spec.formatted("  labels: {shape: [2, 3], init: {values: [[0, 1, 0], [1, 0, 0]]}}"));
        assertEquals(Status.PASSED, oneHot.status(), oneHot::message);
        assertEquals(Set.of("x", "W", "b"), checked(oneHot));
        CheckResult soft = check(spec.formatted("  labels: {shape: [2, 3], init: {values: [[0.5, 1, 0], [1, 0, 1]]}}"));
        assertEquals(Set.of("x", "W", "b"), failing(soft));
        CheckResult none = check(spec.formatted(""));
        assertEquals(Status.INVALID, none.status());
        assertTrue(none.message().contains("OutputLayer is an output layer: its backward starts from its loss, so"
                + " the spec gives the labels as an input named 'labels'"), none.message());
    }

    /** An input of a parameter's name gives it values in place of DL4J's initialisation, at DL4J's shape only. */
    @Test
    void aParameterCanBeGivenAsAnInput() {
        CheckResult given = check(CONV.formatted("ConvolutionLayer", "",
                "  b: {shape: [4], init: {values: [0.5, -0.5, 1.0, 2.0]}}"));
        assertEquals(Status.PASSED, given.status(), given::message);
        assertEquals(Set.of("x", "W", "b"), checked(given));
        CheckResult wrongShape = check(CONV.formatted("ConvolutionLayer", "", "  b: {shape: [1, 4]}"));
        assertEquals(Status.INVALID, wrongShape.status());
        assertTrue(wrongShape.message().contains("input 'b' gives parameter b of ConvolutionLayer the shape [1, 4];"
                + " DL4J's is [4]"), wrongShape.message());
        CheckResult stray = check(CONV.formatted("ConvolutionLayer", "", "  y: {shape: [4]}"));
        assertTrue(stray.message().contains("input 'y' is neither the layer's input (written first: 'x'),"
                + " 'labels', 'mask', nor a parameter of ConvolutionLayer (parameters: b, W)"), stray.message());
    }

    @Test
    void dropoutInTrainingIsRefusedWithItsReason() {
        CheckResult r = check(CONV.formatted("ConvolutionLayer", "\n  dropOut: 0.5", ""));
        assertEquals(Status.INVALID, r.status(), r::message);
        assertTrue(r.message().contains("has dropout, which draws a new mask"), r.message());
    }
}
