package dev.gradcheck.op;

import java.util.Collection;
import java.util.Map;
import org.deeplearning4j.nn.api.Layer;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.gradient.Gradient;
import org.deeplearning4j.nn.workspace.ArrayType;
import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.deeplearning4j.optimize.api.TrainingListener;
import org.nd4j.common.primitives.Pair;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A user's custom DL4J layer, as a spec names it by its class: DL4J's ConvolutionLayer whose hand-written backward
 * is deliberately wrong in one place ({@code flaw}), or right ({@code none}). The checker must name the gradient
 * that is wrong and pass the others.
 */
public class WrongConvolution extends ConvolutionLayer {

    /** none, weights (W's gradient scaled by 1.01), bias (b's zeroed), or input (its spatial axes swapped). */
    private String flaw = "none";

    public WrongConvolution() {
        super(new ConvolutionLayer.Builder());
    }

    public String getFlaw() {
        return flaw;
    }

    public void setFlaw(String flaw) {
        this.flaw = flaw;
    }

    @Override
    public Layer instantiate(NeuralNetConfiguration conf, Collection<TrainingListener> listeners, int index,
                             INDArray paramsView, boolean initializeParams, DataType dtype) {
        Impl layer = new Impl(conf, dtype, flaw);
        layer.setListeners(listeners);
        layer.setIndex(index);
        layer.setParamsViewArray(paramsView);
        Map<String, INDArray> table = initializer().init(conf, paramsView, initializeParams);
        layer.setParamTable(table);
        layer.setConf(conf);
        return layer;
    }

    /** DL4J's convolution with the flaw applied to what its backward returns. */
    static final class Impl extends org.deeplearning4j.nn.layers.convolution.ConvolutionLayer {
        private final String flaw;

        Impl(NeuralNetConfiguration conf, DataType dtype, String flaw) {
            super(conf, dtype);
            this.flaw = flaw;
        }

        @Override
        public Pair<Gradient, INDArray> backpropGradient(INDArray epsilon, LayerWorkspaceMgr workspaces) {
            Pair<Gradient, INDArray> right = super.backpropGradient(epsilon, workspaces);
            switch (flaw) {
                case "weights" -> right.getFirst().getGradientFor("W").muli(1.01);
                case "bias" -> right.getFirst().getGradientFor("b").assign(0);
                // in the workspace a network expects the epsilon in (LayerWorkspaceMgr.noWorkspaces(): none)
                case "input" -> right.setSecond(workspaces.dup(ArrayType.ACTIVATION_GRAD,
                        right.getSecond().permute(0, 1, 3, 2), 'c'));
                case "throws" -> throw new IllegalStateException("this backward cannot run (a test hook)");
                default -> { }
            }
            return right;
        }
    }
}
