package com.example.layers;

import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The same layer with a bug in its backward: the weight gradient is taken from the output's gradient, before the
 * activation's derivative (xᵀ·ε instead of xᵀ·δ). Its input and bias gradients are right.
 */
public class SwishDenseBuggy extends SwishDense {

    @Override
    protected SwishDenseImpl newLayer(NeuralNetConfiguration conf, DataType dataType) {
        return new SwishDenseImpl(conf, dataType) {
            @Override
            protected INDArray weightGradient(INDArray x, INDArray delta, INDArray epsilon) {
                return x.transpose().mmul(epsilon); // BUG: forgets dy/dz
            }
        };
    }
}
