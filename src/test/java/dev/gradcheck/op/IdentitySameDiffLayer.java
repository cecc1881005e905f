package dev.gradcheck.op;

import java.util.Map;
import org.deeplearning4j.nn.conf.InputPreProcessor;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.samediff.SDLayerParams;
import org.deeplearning4j.nn.conf.layers.samediff.SameDiffLayer;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The smallest layer written as a SameDiff graph, as DL4J's LocallyConnected, attention and capsule layers are: its
 * output is its input, so its right input gradient is the gradient it receives, unchanged (a test hook).
 */
public class IdentitySameDiffLayer extends SameDiffLayer {

    @Override
    public SDVariable defineLayer(SameDiff sameDiff, SDVariable input, Map<String, SDVariable> params,
                                  SDVariable mask) {
        return sameDiff.identity(input);
    }

    @Override
    public void defineParameters(SDLayerParams params) {
        // no parameters: the input gradient alone shows the doubling
    }

    @Override
    public void initializeParameters(Map<String, INDArray> params) {
        // no parameters
    }

    @Override
    public InputType getOutputType(int layerIndex, InputType inputType) {
        return inputType;
    }

    @Override
    public void setNIn(InputType inputType, boolean override) {
        // shape-preserving: nothing to size
    }

    @Override
    public InputPreProcessor getPreProcessorForInputType(InputType inputType) {
        return null;
    }
}
