package com.example.linear;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The same layer with a classic bug: the bias gradient takes the first sample's dL/dy instead of summing over
 * the batch. Its shape is right and a batch of one even passes, which is what makes it easy to miss.
 */
public class LinearBuggyBias extends Linear {

    @Override
    public String name() {
        return "example_linear_buggy_bias";
    }

    @Override
    protected INDArray biasGradient(INDArray gy) {
        return gy.getRow(0).dup(); // BUG: should be gy.sum(0)
    }
}
