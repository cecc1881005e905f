package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import java.util.List;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.LossLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.junit.jupiter.api.Test;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.util.SameDiffUtils;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.layers.ExternalErrorsFunction;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.NoOp;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

/**
 * Why every DL4J layer written as a SameDiff graph returns twice its gradient (docs/dl4j-findings.md): DL4J feeds
 * the gradient its layer receives in through ND4J's ExternalErrorsFunction, whose doDiff both registers that
 * gradient as its input's gradient and returns it, and DifferentialFunction.diff adds a returned gradient to one
 * already registered. A layer whose output is its input shows it alone.
 */
class SameDiffDoubledGradientTest {

    private static MultiLayerNetwork identityNetwork() {
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().dataType(DataType.DOUBLE)
                .updater(new NoOp()).list().layer(new IdentitySameDiffLayer())
                .layer(new LossLayer.Builder(LossFunction.MSE).build()).setInputType(InputType.feedForward(3))
                .build());
        net.init();
        return net;
    }

    @Test
    void anIdentitySameDiffLayerReturnsExactlyTwiceTheGradientItReceives() {
        org.deeplearning4j.nn.api.Layer layer = identityNetwork().getLayer(0);
        LayerWorkspaceMgr none = LayerWorkspaceMgr.noWorkspaces();
        INDArray x = Nd4j.rand(DataType.DOUBLE, 2, 3);
        INDArray epsilon = Nd4j.rand(DataType.DOUBLE, 2, 3);
        layer.setInput(x, none);
        assertEquals(x, layer.activate(true, none), "the forward is the identity");
        INDArray dx = layer.backpropGradient(epsilon, none).getSecond();
        assertEquals(epsilon.mul(2), dx, "exactly twice, not epsilon");
    }

    @Test
    void externalErrorsDiffAddsTheGradientPlaceholderToItself() {
        SameDiff sd = SameDiff.create();
        SDVariable y = sd.identity(sd.var("x", DataType.DOUBLE, 2, 3));
        ExternalErrorsFunction fn = SameDiffUtils.externalErrors(sd, null, y);
        List<SDVariable> returned = fn.diff(List.of(sd.zero("unused", DataType.DOUBLE, 1)));
        SDVariable placeholder = sd.getVariable(fn.getGradPlaceholderName());
        assertNotSame(placeholder, returned.get(0), "not the placeholder itself, as y's only consumer should give");
        assertSame(returned.get(0), y.getGradient());
        DifferentialFunction sum = sd.getVariableOutputOp(returned.get(0).name());
        assertEquals("add", sum.opName());
        assertEquals(List.of(placeholder.name(), placeholder.name()), List.of(sum.argNames()));
    }

    @Test
    void gradcheckFailsTheIdentitySameDiffLayerOnItsInputByAFactorOfTwo() {
        CheckResult r = LayerChecks.check("""
                name: identity-samediff
                layer: {type: dev.gradcheck.op.IdentitySameDiffLayer}
                inputs:
                  x: {shape: [2, 3]}
                """);
        assertEquals(Status.FAILED, r.status(), r::message);
        GradientResult x = r.gradients().stream().filter(g -> g.kind() == CheckKind.JACOBIAN).findFirst()
                .orElseThrow();
        assertEquals(Verdict.MISMATCH, x.verdict());
        assertEquals(2.0, x.worst().analytic() / x.worst().numerical(), 1e-6, "analytic twice the numerical");
    }
}
