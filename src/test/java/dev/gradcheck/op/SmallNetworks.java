package dev.gradcheck.op;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.util.ModelSerializer;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.lossfunctions.LossFunctions;

/** Small DL4J networks for the tests of other packages (the library API, the JUnit engine). */
public final class SmallNetworks {

    private SmallNetworks() {
    }

    /**
     * On flat 6x6 images ([batch, 36]): conv1 (a {@link WrongConvolution} with the given flaw, or none), a dense
     * layer fc and a softmax output layer of 2.
     */
    public static MultiLayerNetwork convDenseOutput(String flaw) {
        WrongConvolution conv = new WrongConvolution();
        conv.setFlaw(flaw);
        conv.setNOut(2);
        conv.setKernelSize(new int[] {3, 3});
        conv.setLayerName("conv1");
        conv.setActivationFn(Activation.TANH.getActivationFunction());
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(3)
                .dataType(DataType.DOUBLE).list()
                .layer(conv)
                .layer(new DenseLayer.Builder().name("fc").nOut(3).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).name("out").nOut(2)
                        .activation(Activation.SOFTMAX).build())
                .setInputType(InputType.convolutionalFlat(6, 6, 1)).build());
        net.init();
        return net;
    }

    /** {@link #convDenseOutput} saved with ModelSerializer at {@code zip}. */
    public static Path saved(String flaw, Path zip) throws IOException {
        ModelSerializer.writeModel(convDenseOutput(flaw), new File(zip.toString()), false);
        return zip;
    }
}
