import java.nio.file.Files;
import java.nio.file.Path;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.LSTM;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.RnnOutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.lossfunctions.LossFunctions;

/** Writes the network configurations bench/dl4j/real-size.yaml checks end to end (docs/benchmarks-scale.md): a
 * LeNet-sized CNN on 28x28 and a two-layer LSTM of 256 units. Run:
 * java -cp '<gradcheck>/target/lib/*' tools/Dl4jRealNetworks.java bench/dl4j */
public class Dl4jRealNetworks {
  public static void main(String[] a) throws Exception {
    MultiLayerConfiguration lenet = new NeuralNetConfiguration.Builder().seed(12).dataType(DataType.DOUBLE).list()
        .layer(new ConvolutionLayer.Builder(5, 5).name("conv1").nOut(20).activation(Activation.RELU).build())
        .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).name("pool1").kernelSize(2, 2)
            .stride(2, 2).build())
        .layer(new ConvolutionLayer.Builder(5, 5).name("conv2").nOut(50).activation(Activation.RELU).build())
        .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).name("pool2").kernelSize(2, 2)
            .stride(2, 2).build())
        .layer(new DenseLayer.Builder().name("fc").nOut(500).activation(Activation.RELU).build())
        .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).name("out").nOut(10)
            .activation(Activation.SOFTMAX).build())
        .setInputType(InputType.convolutionalFlat(28, 28, 1)).build();
    Files.writeString(Path.of(a[0], "lenet-real.json"), lenet.toJson());
    MultiLayerConfiguration lstm = new NeuralNetConfiguration.Builder().seed(12).dataType(DataType.DOUBLE).list()
        .layer(new LSTM.Builder().name("lstm1").nOut(256).activation(Activation.TANH).build())
        .layer(new LSTM.Builder().name("lstm2").nOut(256).activation(Activation.TANH).build())
        .layer(new RnnOutputLayer.Builder(LossFunctions.LossFunction.MSE).name("out").nOut(10)
            .activation(Activation.IDENTITY).build())
        .setInputType(InputType.recurrent(128, 64)).build();
    Files.writeString(Path.of(a[0], "lstm2-real.json"), lstm.toJson());
  }
}
