package com.example.layers;

import java.util.Collection;
import java.util.Map;
import org.deeplearning4j.nn.api.ParamInitializer;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.FeedForwardLayer;
import org.deeplearning4j.nn.conf.memory.LayerMemoryReport;
import org.deeplearning4j.nn.params.DefaultParamInitializer;
import org.deeplearning4j.optimize.api.TrainingListener;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The configuration of a dense layer with the Swish activation, y = z·σ(βz) where z = x·W + b: a user's own DL4J
 * layer. DL4J's JSON reads and writes its fields (beta among them), so a spec's options set them.
 */
public class SwishDense extends FeedForwardLayer {

    private double beta = 1.0;

    /** For DL4J's JSON. */
    public SwishDense() {
    }

    protected SwishDense(Builder builder) {
        super(builder);
        this.beta = builder.beta;
    }

    public double getBeta() {
        return beta;
    }

    public void setBeta(double beta) {
        this.beta = beta;
    }

    @Override
    public org.deeplearning4j.nn.api.Layer instantiate(NeuralNetConfiguration conf,
            Collection<TrainingListener> listeners, int index, INDArray paramsView, boolean initializeParams,
            DataType dataType) {
        SwishDenseImpl layer = newLayer(conf, dataType);
        layer.setListeners(listeners);
        layer.setIndex(index);
        layer.setParamsViewArray(paramsView);
        Map<String, INDArray> params = initializer().init(conf, paramsView, initializeParams);
        layer.setParamTable(params);
        layer.setConf(conf);
        return layer;
    }

    /** The implementation this configuration makes. */
    protected SwishDenseImpl newLayer(NeuralNetConfiguration conf, DataType dataType) {
        return new SwishDenseImpl(conf, dataType);
    }

    @Override
    public ParamInitializer initializer() {
        return DefaultParamInitializer.getInstance(); // W [nIn, nOut] and b [1, nOut], as DenseLayer's
    }

    @Override
    public LayerMemoryReport getMemoryReport(InputType inputType) {
        return new LayerMemoryReport.Builder(layerName, SwishDense.class, inputType, getOutputType(-1, inputType))
                .standardMemory(initializer().numParams(this), 0).workingMemory(0, 0, 0, 0)
                .cacheMemory(0, 0).build();
    }

    public static class Builder extends FeedForwardLayer.Builder<Builder> {

        private double beta = 1.0;

        public Builder beta(double beta) {
            this.beta = beta;
            return this;
        }

        @Override
        @SuppressWarnings("unchecked")
        public SwishDense build() {
            return new SwishDense(this);
        }
    }
}
