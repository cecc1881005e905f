package dev.gradcheck.op;

import java.util.Collection;
import java.util.Map;
import org.deeplearning4j.nn.api.Layer;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.recurrent.SimpleRnn;
import org.deeplearning4j.nn.gradient.Gradient;
import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.deeplearning4j.optimize.api.TrainingListener;
import org.nd4j.common.primitives.Pair;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * DL4J's SimpleRnn whose backward forgets the mask its forward applied (a test hook, as a user's layer): its
 * gradients are those of the unmasked sequence, wrong wherever a step is masked.
 */
public class MaskIgnoringRnn extends SimpleRnn {

    /** For DL4J's JSON, with SimpleRnn's builder's defaults. */
    public MaskIgnoringRnn() {
        super(new SimpleRnn.Builder());
    }

    @Override
    public Layer instantiate(NeuralNetConfiguration conf, Collection<TrainingListener> listeners, int index,
                             INDArray view, boolean initialize, DataType dtype) {
        org.deeplearning4j.nn.layers.recurrent.SimpleRnn layer = new org.deeplearning4j.nn.layers.recurrent
                .SimpleRnn(conf, dtype) {
            @Override
            public Pair<Gradient, INDArray> backpropGradient(INDArray epsilon, LayerWorkspaceMgr workspaces) {
                INDArray mask = getMaskArray();
                setMaskArray(null); // BUG: backpropagates through the masked steps
                try {
                    return super.backpropGradient(epsilon, workspaces);
                } finally {
                    setMaskArray(mask);
                }
            }
        };
        layer.setListeners(listeners);
        layer.setIndex(index);
        layer.setParamsViewArray(view);
        Map<String, INDArray> params = initializer().init(conf, view, initialize);
        layer.setParamTable(params);
        layer.setConf(conf);
        return layer;
    }
}
