import java.nio.file.Files;
import java.nio.file.Path;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.LSTM;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.deeplearning4j.nn.conf.layers.RnnOutputLayer;
import org.deeplearning4j.nn.conf.layers.recurrent.SimpleRnn;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.lossfunctions.LossFunctions;

/** Writes the recurrent networks specs/dl4j/network-masks.yaml checks under masks (docs/dl4j.md, "Masks in a
 * network"): a SimpleRnn or an LSTM of 4 units over 3 features, then an RnnOutputLayer of 2. Run:
 * java -cp "$(cat classpath)" tools/Dl4jMaskedNetworks.java specs/dl4j */
public class Dl4jMaskedNetworks {
  public static void main(String[] a) throws Exception {
    Files.writeString(Path.of(a[0], "rnn-masked.json"), network(new SimpleRnn.Builder().name("rnn").nOut(4)
        .activation(Activation.TANH).build()).toJson());
    Files.writeString(Path.of(a[0], "lstm-masked.json"), network(new LSTM.Builder().name("lstm").nOut(4)
        .activation(Activation.TANH).build()).toJson());
  }

  private static MultiLayerConfiguration network(Layer recurrent) {
    return new NeuralNetConfiguration.Builder().seed(5).dataType(DataType.DOUBLE).list()
        .layer(recurrent)
        .layer(new RnnOutputLayer.Builder(LossFunctions.LossFunction.MSE).name("out").nOut(2)
            .activation(Activation.IDENTITY).build())
        .setInputType(InputType.recurrent(3, 5)).build();
  }
}
