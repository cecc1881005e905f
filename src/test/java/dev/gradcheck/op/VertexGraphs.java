package dev.gradcheck.op;

import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.graph.ElementWiseVertex;
import org.deeplearning4j.nn.conf.graph.GraphVertex;
import org.deeplearning4j.nn.conf.graph.L2NormalizeVertex;
import org.deeplearning4j.nn.conf.graph.L2Vertex;
import org.deeplearning4j.nn.conf.graph.MergeVertex;
import org.deeplearning4j.nn.conf.graph.ScaleVertex;
import org.deeplearning4j.nn.conf.graph.ShiftVertex;
import org.deeplearning4j.nn.conf.graph.StackVertex;
import org.deeplearning4j.nn.conf.graph.SubsetVertex;
import org.deeplearning4j.nn.conf.graph.UnstackVertex;
import org.deeplearning4j.nn.conf.graph.rnn.DuplicateToTimeSeriesVertex;
import org.deeplearning4j.nn.conf.graph.rnn.LastTimeStepVertex;
import org.deeplearning4j.nn.conf.graph.rnn.ReverseTimeSeriesVertex;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.recurrent.SimpleRnn;
import org.nd4j.linalg.activations.Activation;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.nd4j.linalg.api.buffer.DataType;

/** Small ComputationGraphs of many vertex kinds, for the tests of vertices inside network specs. */
final class VertexGraphs {

    private VertexGraphs() {}

    /** Two dense layers into eleven vertices of nine kinds (one fed the same input twice), then a dense layer. */
    static ComputationGraph dense(GraphVertex scale) {
        ComputationGraphConfiguration conf = new NeuralNetConfiguration.Builder().seed(7).dataType(DataType.DOUBLE)
                .graphBuilder().addInputs("in")
                .addLayer("d1", new DenseLayer.Builder().nIn(3).nOut(4).activation(Activation.TANH).build(), "in")
                .addLayer("d2", new DenseLayer.Builder().nIn(3).nOut(4).activation(Activation.TANH).build(), "in")
                .addVertex("sum", new ElementWiseVertex(ElementWiseVertex.Op.Add), "d1", "d2")
                .addVertex("max", new ElementWiseVertex(ElementWiseVertex.Op.Max), "d1", "d2")
                .addVertex("prod", new ElementWiseVertex(ElementWiseVertex.Op.Product), "sum", "max")
                .addVertex("merge", new MergeVertex(), "prod", "d1")
                .addVertex("subset", new SubsetVertex(1, 6), "merge")
                .addVertex("scale", scale, "subset")
                .addVertex("shift", new ShiftVertex(0.5), "scale")
                .addVertex("norm", new L2NormalizeVertex(), "shift")
                .addVertex("dist", new L2Vertex(), "d1", "d2")
                .addVertex("stack", new StackVertex(), "d1", "d2")
                .addVertex("unstack", new UnstackVertex(1, 2), "stack")
                .addVertex("twice", new ElementWiseVertex(ElementWiseVertex.Op.Add), "unstack", "unstack")
                .addLayer("out", new DenseLayer.Builder().nIn(6).nOut(2).activation(Activation.TANH).build(), "norm")
                .setOutputs("out", "dist", "twice").build();
        ComputationGraph graph = new ComputationGraph(conf);
        graph.init();
        return graph;
    }

    /** A recurrent layer, then its last real step, copied along the series, reversed within the real steps. */
    static ComputationGraph sequence() {
        ComputationGraphConfiguration conf = new NeuralNetConfiguration.Builder().seed(7).dataType(DataType.DOUBLE)
                .graphBuilder().addInputs("seq")
                .addLayer("rnn", new SimpleRnn.Builder().nIn(3).nOut(3).activation(Activation.TANH).build(), "seq")
                .addVertex("last", new LastTimeStepVertex("seq"), "rnn")
                .addVertex("dup", new DuplicateToTimeSeriesVertex("seq"), "last")
                .addVertex("rev", new ReverseTimeSeriesVertex("seq"), "dup")
                .setOutputs("rev").build();
        ComputationGraph graph = new ComputationGraph(conf);
        graph.init();
        return graph;
    }


    /**
     * A frozen recurrent layer (DL4J's FrozenLayer), one frozen with backprop, then, if asked, self-attention over
     * its steps (an AttentionVertex, unprojected), then a FrozenVertex adding the two.
     */
    static ComputationGraph frozen(boolean attention) {
        var g = new NeuralNetConfiguration.Builder().seed(7).dataType(DataType.DOUBLE).graphBuilder()
                .addInputs("in")
                .addLayer("frozen", new org.deeplearning4j.nn.conf.layers.misc.FrozenLayer(new SimpleRnn.Builder()
                        .nIn(4).nOut(4).activation(Activation.TANH).build()), "in")
                .addLayer("thawed", new org.deeplearning4j.nn.conf.layers.misc.FrozenLayerWithBackprop(
                        new SimpleRnn.Builder().nIn(4).nOut(4).activation(Activation.TANH).build()), "frozen");
        String into = "thawed";
        if (attention) {
            g.addVertex("att", new org.deeplearning4j.nn.conf.graph.AttentionVertex.Builder().nInQueries(4)
                    .nInKeys(4).nInValues(4).nOut(4).nHeads(1).projectInput(false).build(), "thawed", "thawed",
                    "thawed");
            into = "att";
        }
        g.addVertex("fadd", new org.deeplearning4j.nn.conf.graph.FrozenVertex(new ElementWiseVertex(
                ElementWiseVertex.Op.Add)), into, "thawed").setOutputs("fadd");
        ComputationGraph graph = new ComputationGraph(g.build());
        graph.init();
        return graph;
    }
}
