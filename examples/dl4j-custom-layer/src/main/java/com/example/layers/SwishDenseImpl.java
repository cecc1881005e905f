package com.example.layers;

import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.gradient.DefaultGradient;
import org.deeplearning4j.nn.gradient.Gradient;
import org.deeplearning4j.nn.layers.BaseLayer;
import org.deeplearning4j.nn.params.DefaultParamInitializer;
import org.deeplearning4j.nn.workspace.ArrayType;
import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.nd4j.common.primitives.Pair;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

/** The layer itself: its forward, and its backward written by hand. */
public class SwishDenseImpl extends BaseLayer<SwishDense> {

    public SwishDenseImpl(NeuralNetConfiguration conf, DataType dataType) {
        super(conf, dataType);
    }

    @Override
    public boolean isPretrainLayer() {
        return false;
    }

    @Override
    public INDArray activate(boolean training, LayerWorkspaceMgr workspaces) {
        INDArray z = preOutput(training, workspaces); // x·W + b
        INDArray s = Transforms.sigmoid(z.mul(layerConf().getBeta()), false);
        return z.muli(s);
    }

    /** dy/dz = σ(βz) + βz·σ(βz)·(1 − σ(βz)); then z = x·W + b gives the three gradients. */
    @Override
    public Pair<Gradient, INDArray> backpropGradient(INDArray epsilon, LayerWorkspaceMgr workspaces) {
        double beta = layerConf().getBeta();
        INDArray z = preOutput(true, workspaces).dup();
        INDArray s = Transforms.sigmoid(z.mul(beta), false);
        INDArray dydz = s.add(z.mul(s).muli(s.rsub(1)).muli(beta));
        INDArray delta = epsilon.mul(dydz);

        INDArray weightGrad = gradientViews.get(DefaultParamInitializer.WEIGHT_KEY);
        weightGrad.assign(weightGradient(input, delta, epsilon));
        INDArray biasGrad = gradientViews.get(DefaultParamInitializer.BIAS_KEY);
        biasGrad.assign(delta.sum(true, 0));
        Gradient gradient = new DefaultGradient();
        gradient.gradientForVariable().put(DefaultParamInitializer.WEIGHT_KEY, weightGrad);
        gradient.gradientForVariable().put(DefaultParamInitializer.BIAS_KEY, biasGrad);

        INDArray w = getParam(DefaultParamInitializer.WEIGHT_KEY);
        INDArray inputGrad = delta.mmul(w.transpose());
        return new Pair<>(gradient, workspaces.leverageTo(ArrayType.ACTIVATION_GRAD, inputGrad));
    }

    /** dL/dW = xᵀ·δ, δ the gradient at z. */
    protected INDArray weightGradient(INDArray x, INDArray delta, INDArray epsilon) {
        return x.transpose().mmul(delta);
    }
}
