import org.deeplearning4j.gradientcheck.GradientCheckUtil;
import org.deeplearning4j.nn.conf.*;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.*;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.NoOp;
import org.nd4j.linalg.lossfunctions.LossFunctions;
/** DL4J's own GradientCheckUtil on LSTM -> SelfAttentionLayer -> MSE: the LSTM's gradients come out twice the
 * numerical ones (docs/dl4j-findings.md). Run: java -cp '<gradcheck>/target/lib/*' tools/Dl4jAttentionRepro.java */
public class Dl4jAttentionRepro {
  public static void main(String[] a) throws Exception {
    Nd4j.setDefaultDataTypes(DataType.DOUBLE, DataType.DOUBLE);
    for (boolean project : new boolean[]{false, true}) {
      SelfAttentionLayer.Builder att = new SelfAttentionLayer.Builder().nIn(4).nOut(4).nHeads(1).projectInput(project);
      if (project) att.headSize(4);
      MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(7).dataType(DataType.DOUBLE)
        .updater(new NoOp()).list()
        .layer(new LSTM.Builder().nOut(4).activation(Activation.TANH).build())
        .layer(att.build())
        .layer(new RnnLossLayer.Builder(LossFunctions.LossFunction.MSE).activation(Activation.IDENTITY).build())
        .setInputType(InputType.recurrent(4, 5)).build());
      net.init();
      var x = Nd4j.rand(DataType.DOUBLE, 2, 4, 5); var y = Nd4j.rand(DataType.DOUBLE, 2, 4, 5);
      boolean ok = GradientCheckUtil.checkGradients(new GradientCheckUtil.MLNConfig().net(net).input(x).labels(y)
          .epsilon(1e-6).maxRelError(1e-3).minAbsoluteError(1e-8).print(GradientCheckUtil.PrintMode.FAILURES_ONLY));
      System.out.println("projectInput=" + project + " GradientCheckUtil: " + (ok ? "pass" : "FAIL"));
    }
  }
}
