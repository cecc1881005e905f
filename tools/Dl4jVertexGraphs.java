import java.nio.file.Files;
import java.nio.file.Path;
import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.graph.AttentionVertex;
import org.deeplearning4j.nn.conf.graph.ElementWiseVertex;
import org.deeplearning4j.nn.conf.graph.FrozenVertex;
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
import org.deeplearning4j.nn.conf.layers.misc.FrozenLayer;
import org.deeplearning4j.nn.conf.layers.misc.FrozenLayerWithBackprop;
import org.deeplearning4j.nn.conf.layers.recurrent.SimpleRnn;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;

/** Writes the ComputationGraphs specs/dl4j/graph-vertices.yaml checks (docs/dl4j.md, "A ComputationGraph"): dense
 * layers into vertices of nine kinds; a recurrent layer into the sequence vertices; and a frozen graph (FrozenLayer,
 * FrozenLayerWithBackprop, an AttentionVertex, a FrozenVertex). Run:
 * java -cp "$(cat classpath)" tools/Dl4jVertexGraphs.java specs/dl4j */
public class Dl4jVertexGraphs {
  public static void main(String[] a) throws Exception {
    Files.writeString(Path.of(a[0], "vertices-dense.json"), dense().toJson());
    Files.writeString(Path.of(a[0], "vertices-sequence.json"), sequence().toJson());
    Files.writeString(Path.of(a[0], "vertices-frozen.json"), frozen().toJson());
  }

  private static ComputationGraphConfiguration dense() {
    return new NeuralNetConfiguration.Builder().seed(7).dataType(DataType.DOUBLE).graphBuilder().addInputs("in")
        .addLayer("d1", new DenseLayer.Builder().nIn(3).nOut(4).activation(Activation.TANH).build(), "in")
        .addLayer("d2", new DenseLayer.Builder().nIn(3).nOut(4).activation(Activation.TANH).build(), "in")
        .addVertex("sum", new ElementWiseVertex(ElementWiseVertex.Op.Add), "d1", "d2")
        .addVertex("max", new ElementWiseVertex(ElementWiseVertex.Op.Max), "d1", "d2")
        .addVertex("prod", new ElementWiseVertex(ElementWiseVertex.Op.Product), "sum", "max")
        .addVertex("merge", new MergeVertex(), "prod", "d1")
        .addVertex("subset", new SubsetVertex(1, 6), "merge")
        .addVertex("scale", new ScaleVertex(2.5), "subset")
        .addVertex("shift", new ShiftVertex(0.5), "scale")
        .addVertex("norm", new L2NormalizeVertex(), "shift")
        .addVertex("dist", new L2Vertex(), "d1", "d2")
        .addVertex("stack", new StackVertex(), "d1", "d2")
        .addVertex("unstack", new UnstackVertex(1, 2), "stack")
        .addVertex("twice", new ElementWiseVertex(ElementWiseVertex.Op.Add), "unstack", "unstack")
        .addLayer("out", new DenseLayer.Builder().nIn(6).nOut(2).activation(Activation.TANH).build(), "norm")
        .setOutputs("out", "dist", "twice").build();
  }

  private static ComputationGraphConfiguration sequence() {
    return new NeuralNetConfiguration.Builder().seed(7).dataType(DataType.DOUBLE).graphBuilder().addInputs("seq")
        .addLayer("rnn", new SimpleRnn.Builder().nIn(3).nOut(3).activation(Activation.TANH).build(), "seq")
        .addVertex("last", new LastTimeStepVertex("seq"), "rnn")
        .addVertex("dup", new DuplicateToTimeSeriesVertex("seq"), "last")
        .addVertex("rev", new ReverseTimeSeriesVertex("seq"), "dup")
        .setOutputs("rev").build();
  }

  private static ComputationGraphConfiguration frozen() {
    return new NeuralNetConfiguration.Builder().seed(7).dataType(DataType.DOUBLE).graphBuilder().addInputs("in")
        .addLayer("frozen", new FrozenLayer(new SimpleRnn.Builder().nIn(4).nOut(4).activation(Activation.TANH)
            .build()), "in")
        .addLayer("thawed", new FrozenLayerWithBackprop(new SimpleRnn.Builder().nIn(4).nOut(4)
            .activation(Activation.TANH).build()), "frozen")
        .addVertex("att", new AttentionVertex.Builder().nInQueries(4).nInKeys(4).nInValues(4).nOut(4).nHeads(2)
            .headSize(2).projectInput(true).build(), "thawed", "thawed", "thawed")
        .addVertex("fadd", new FrozenVertex(new ElementWiseVertex(ElementWiseVertex.Op.Add)), "att", "thawed")
        .setOutputs("fadd").build();
  }
}
