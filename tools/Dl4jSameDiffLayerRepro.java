import org.deeplearning4j.gradientcheck.GradientCheckUtil;
import org.deeplearning4j.nn.conf.*;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.*;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInit;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.NoOp;
import org.nd4j.linalg.lossfunctions.LossFunctions;
/** DL4J's own GradientCheckUtil on its SameDiff-defined layers with parameters (RecurrentAttentionLayer,
 * CapsuleLayer), each followed by a loss layer: their parameters' gradients come out twice the numerical ones
 * (docs/dl4j-findings.md). Run: java -cp '<gradcheck>/target/lib/*' tools/Dl4jSameDiffLayerRepro.java */
public class Dl4jSameDiffLayerRepro {
  static void check(String what, Layer layer, Layer loss, InputType in, long[] x, long[] y) {
    MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(7).dataType(DataType.DOUBLE)
        .updater(new NoOp()).weightInit(WeightInit.XAVIER).list().layer(layer).layer(loss).setInputType(in).build());
    net.init();
    Nd4j.getRandom().setSeed(7);
    boolean ok = GradientCheckUtil.checkGradients(new GradientCheckUtil.MLNConfig().net(net)
        .input(Nd4j.rand(DataType.DOUBLE, x).subi(0.5)).labels(Nd4j.rand(DataType.DOUBLE, y))
        .epsilon(1e-6).maxRelError(1e-3).minAbsoluteError(1e-8).print(GradientCheckUtil.PrintMode.FAILURES_ONLY));
    System.out.println(what + " GradientCheckUtil: " + (ok ? "pass" : "FAIL"));
  }
  public static void main(String[] a) {
    Nd4j.setDefaultDataTypes(DataType.DOUBLE, DataType.DOUBLE);
    check("RecurrentAttentionLayer", new RecurrentAttentionLayer.Builder().nIn(3).nOut(3).nHeads(1)
        .projectInput(false).activation(Activation.TANH).build(),
        new RnnLossLayer.Builder(LossFunctions.LossFunction.MSE).activation(Activation.IDENTITY).build(),
        InputType.recurrent(3, 4), new long[] {2, 3, 4}, new long[] {2, 3, 4});
    check("CapsuleLayer", new CapsuleLayer.Builder(2, 3, 2).build(),
        new RnnLossLayer.Builder(LossFunctions.LossFunction.MSE).activation(Activation.IDENTITY).build(),
        InputType.recurrent(4, 2), new long[] {2, 4, 2}, new long[] {2, 2, 3});
  }
}
