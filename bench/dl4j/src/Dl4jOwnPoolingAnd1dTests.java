// bench/dl4j: configurations of DL4J's GlobalPoolingGradientCheckTests and CNN1DGradientCheckTest
// (deeplearning4j-core), one variant of each test method's loops (named in the case), as facts; the masked
// variants are left to the masks in network specs.
import java.util.List;
import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.RNNFormat;
import org.deeplearning4j.nn.conf.distribution.NormalDistribution;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.Convolution1DLayer;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.GlobalPoolingLayer;
import org.deeplearning4j.nn.conf.layers.GravesLSTM;
import org.deeplearning4j.nn.conf.layers.LocallyConnected1D;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.PoolingType;
import org.deeplearning4j.nn.conf.layers.RnnOutputLayer;
import org.deeplearning4j.nn.conf.layers.Subsampling1DLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.conf.layers.ZeroPadding1DLayer;
import org.deeplearning4j.nn.conf.layers.convolutional.Cropping1D;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

final class Dl4jOwnPoolingAnd1dTests {

    private static final String POOL = "GlobalPoolingGradientCheckTests.";
    private static final String CNN1D = "CNN1DGradientCheckTest.";

    private Dl4jOwnPoolingAnd1dTests() {
    }

    static List<Dl4jOwnTests.Case> cases() {
        return List.of(lstmPooling(PoolingType.MAX), lstmPooling(PoolingType.PNORM), cnnPooling(PoolingType.AVG),
                cnnPooling(PoolingType.SUM), locallyConnected1d(), cropping1d(), zeroPadding1d(), subsampling1d(),
                causal());
    }

    private static NeuralNetConfiguration.Builder normal() {
        return Dl4jOwnTests.drawn(new NormalDistribution(0, 1));
    }

    private static OutputLayer softmax(long nOut) {
        return new OutputLayer.Builder(LossFunction.MCXENT).activation(Activation.SOFTMAX).nOut(nOut).build();
    }

    private static RnnOutputLayer rnnSoftmax(long nOut) {
        return new RnnOutputLayer.Builder(LossFunction.MCXENT).activation(Activation.SOFTMAX).nOut(nOut).build();
    }

    /** testLSTMGlobalPoolingBasicMultiLayer: GravesLSTM 5 to 4 over 10 steps, minibatch 3. */
    private static Dl4jOwnTests.Case lstmPooling(PoolingType type) {
        return new Dl4jOwnTests.Case(POOL + "testLSTMGlobalPoolingBasicMultiLayer (" + type + ", minibatch 3)",
                normal().list().layer(new GravesLSTM.Builder().nIn(5).nOut(4).activation(Activation.TANH).build())
                        .layer(new GlobalPoolingLayer.Builder().poolingType(type).build())
                        .layer(new OutputLayer.Builder(LossFunction.MCXENT).activation(Activation.SOFTMAX).nIn(4)
                                .nOut(2).build()).build(), new long[] {3, 5, 10}, 3, 2).slow();
    }

    /**
     * testCnnGlobalPoolingBasicMultiLayer: 2x2 conv 3 to 4 channels on 5x4, minibatch 3. Summed, the sigmoid
     * activations drive the softmax so far that a label's probability falls under MCXENT's clip (1e-10) at
     * gradcheck's input: its score is flat there, its gradient is not (docs/dl4j-findings.md).
     */
    private static Dl4jOwnTests.Case cnnPooling(PoolingType type) {
        String name = POOL + "testCnnGlobalPoolingBasicMultiLayer (" + type + ", minibatch 3)";
        Dl4jOwnTests.Case c = new Dl4jOwnTests.Case(name,
                normal().list().layer(new ConvolutionLayer.Builder().kernelSize(2, 2).stride(1, 1).nOut(4).build())
                        .layer(new GlobalPoolingLayer.Builder().poolingType(type).build()).layer(softmax(2))
                        .setInputType(InputType.convolutional(5, 4, 3)).build(), new long[] {3, 3, 5, 4}, 3, 2);
        return type == PoolingType.SUM ? c.failing(Dl4jOwnTests.MCXENT_CLIP) : c;
    }

    private static Convolution1DLayer conv1d(int kernel, long nOut) {
        return new Convolution1DLayer.Builder().kernelSize(kernel).stride(1).padding(0).nOut(nOut).build();
    }

    private static NeuralNetConfiguration.Builder sigmoidSame() {
        return normal().activation(Activation.SIGMOID).convolutionMode(ConvolutionMode.Same);
    }

    private static Dl4jOwnTests.Case locallyConnected1d() {
        return new Dl4jOwnTests.Case(CNN1D + "testCnn1DWithLocallyConnected1D (kernel 1, minibatch 2)",
                sigmoidSame().list().layer(new Convolution1DLayer.Builder().kernelSize(1).stride(1).padding(0).nIn(2)
                                .nOut(3).rnnDataFormat(RNNFormat.NCW).build())
                        .layer(new LocallyConnected1D.Builder().kernelSize(1).stride(1).padding(0).nIn(3).nOut(4)
                                .hasBias(false).build())
                        .layer(rnnSoftmax(4)).setInputType(InputType.recurrent(2, 7)).build(), new long[] {2, 2, 7},
                2, 4, 7).failing(Dl4jOwnTests.SAMEDIFF).slow();
    }

    private static Dl4jOwnTests.Case cropping1d() {
        return new Dl4jOwnTests.Case(CNN1D + "testCnn1DWithCropping1D (kernel 2, minibatch 3)", sigmoidSame().list()
                .layer(conv1d(2, 3)).layer(new Cropping1D.Builder(1).build()).layer(conv1d(2, 4)).layer(rnnSoftmax(4))
                .setInputType(InputType.recurrent(2, 7, RNNFormat.NCW)).build(), new long[] {3, 2, 7}, 3, 4, 5);
    }

    private static Dl4jOwnTests.Case zeroPadding1d() {
        return new Dl4jOwnTests.Case(CNN1D + "testCnn1DWithZeroPadding1D (kernel 2, MAX, minibatch 3)",
                sigmoidSame().list().layer(conv1d(2, 3)).layer(new ZeroPadding1DLayer.Builder(2).build())
                        .layer(conv1d(2, 4)).layer(new ZeroPadding1DLayer.Builder(0).build())
                        .layer(new Subsampling1DLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2)
                                .stride(1).padding(0).pnorm(2).build())
                        .layer(rnnSoftmax(4)).setInputType(InputType.recurrent(2, 7, RNNFormat.NCW)).build(),
                new long[] {3, 2, 7}, 3, 4, 11);
    }

    private static Dl4jOwnTests.Case subsampling1d() {
        return new Dl4jOwnTests.Case(CNN1D + "testCnn1DWithSubsampling1D (tanh, kernel 2, PNORM, minibatch 3)",
                normal().activation(Activation.TANH).convolutionMode(ConvolutionMode.Same).list()
                        .layer(conv1d(2, 3)).layer(conv1d(2, 4))
                        .layer(new Subsampling1DLayer.Builder(SubsamplingLayer.PoolingType.PNORM).kernelSize(2)
                                .stride(1).padding(0).pnorm(2).build())
                        .layer(rnnSoftmax(4)).setInputType(InputType.recurrent(2, 7, RNNFormat.NCW)).build(),
                new long[] {3, 2, 7}, 3, 4, 7);
    }

    private static Dl4jOwnTests.Case causal() {
        return new Dl4jOwnTests.Case(CNN1D + "testCnn1Causal (kernel 2, dilation 2, stride 1, length 13)",
                normal().activation(Activation.TANH).list()
                        .layer(new Convolution1DLayer.Builder().kernelSize(2).dilation(2).hasBias(true)
                                .convolutionMode(ConvolutionMode.Causal).stride(1).nOut(3).build())
                        .layer(new Convolution1DLayer.Builder().kernelSize(2).dilation(2)
                                .convolutionMode(ConvolutionMode.Causal).stride(1).nOut(4).build())
                        .layer(rnnSoftmax(3)).setInputType(InputType.recurrent(2, 13, RNNFormat.NCW)).build(),
                new long[] {2, 2, 13}, 2, 3, 13);
    }
}
