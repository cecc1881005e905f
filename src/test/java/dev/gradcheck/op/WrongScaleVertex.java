package dev.gradcheck.op;

import org.deeplearning4j.nn.conf.graph.ScaleVertex;
import org.deeplearning4j.nn.gradient.Gradient;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.graph.vertex.GraphVertex;
import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.nd4j.common.primitives.Pair;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.shade.jackson.annotation.JsonProperty;

/**
 * A ScaleVertex whose backward forgets the scale: it hands its epsilon back as it came (the gradient of the
 * identity), where DL4J's own multiplies it by the scale factor. A vertex spec of it must fail on its input.
 */
public class WrongScaleVertex extends ScaleVertex {

    public WrongScaleVertex(@JsonProperty("scaleFactor") double scaleFactor) {
        super(scaleFactor);
    }

    @Override
    public WrongScaleVertex clone() {
        return new WrongScaleVertex(getScaleFactor());
    }

    @Override
    public GraphVertex instantiate(ComputationGraph graph, String name, int idx, INDArray paramsView,
                                   boolean initializeParams, DataType networkDatatype) {
        return new org.deeplearning4j.nn.graph.vertex.impl.ScaleVertex(graph, name, idx, getScaleFactor(),
                networkDatatype) {
            @Override
            public Pair<Gradient, INDArray[]> doBackward(boolean tbptt, LayerWorkspaceMgr workspaceMgr) {
                return new Pair<>(null, new INDArray[] {getEpsilon().dup()});
            }
        };
    }
}
