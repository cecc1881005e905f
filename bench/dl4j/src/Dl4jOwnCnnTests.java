// bench/dl4j: configurations of DL4J's CNNGradientCheckTest (deeplearning4j-core), one variant of each test
// method's loops (the variant named in the case), as facts: the layers, their options, the input's shape.
import java.util.List;
import org.deeplearning4j.nn.conf.ConvolutionMode;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.distribution.NormalDistribution;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.Deconvolution2D;
import org.deeplearning4j.nn.conf.layers.LocallyConnected2D;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.SeparableConvolution2D;
import org.deeplearning4j.nn.conf.layers.SpaceToBatchLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer.PoolingType;
import org.deeplearning4j.nn.conf.layers.Upsampling2D;
import org.deeplearning4j.nn.conf.layers.ZeroPaddingLayer;
import org.deeplearning4j.nn.conf.layers.convolutional.Cropping2D;
import org.deeplearning4j.nn.weights.WeightInit;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

final class Dl4jOwnCnnTests {

    private static final String T = "CNNGradientCheckTest.";

    private Dl4jOwnCnnTests() {
    }

    static List<Dl4jOwnTests.Case> cases() {
        return List.of(cnnMln(false), cnnMln(true), spaceToBatch(), upsampling(), subsampling(PoolingType.MAX),
                subsampling(PoolingType.AVG), subsamplingV2(), locallyConnected2d(), multiLayer(), samePadding(),
                samePaddingStrided(), zeroPadding(), deconvolution(), separable(), dilated(true), dilated(false),
                cropping());
    }

    private static NeuralNetConfiguration.Builder normal() {
        return Dl4jOwnTests.drawn(new NormalDistribution(0, 1));
    }

    private static OutputLayer softmax(long nOut) {
        return new OutputLayer.Builder(LossFunction.MCXENT).activation(Activation.SOFTMAX).nOut(nOut).build();
    }

    private static ConvolutionLayer conv(int k, long nOut) {
        return new ConvolutionLayer.Builder(k, k).stride(1, 1).padding(0, 0).nOut(nOut).build();
    }

    /** testGradientCNNMLN / testGradientCNNL1L2MLN (tanh, NLL with softmax), the Iris features as 1x4 images. */
    private static Dl4jOwnTests.Case cnnMln(boolean regularised) {
        NeuralNetConfiguration.Builder b = Dl4jOwnTests.plain().weightInit(WeightInit.XAVIER);
        if (regularised) {
            b.l2(0.4).l1(0.5).l2Bias(0.0).l1Bias(0.6);
        }
        return new Dl4jOwnTests.Case(T + (regularised ? "testGradientCNNL1L2MLN (tanh, NLL, l2 0.4, l1 0.5, bias l1"
                + " 0.6)" : "testGradientCNNMLN (tanh, NLL)"), b.list()
                .layer(new ConvolutionLayer.Builder(1, 1).nOut(6).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunction.NEGATIVELOGLIKELIHOOD).activation(Activation.SOFTMAX)
                        .nOut(3).build())
                .setInputType(InputType.convolutionalFlat(1, 4, 1)).build(), new long[] {10, 4}, 10, 3);
    }

    private static Dl4jOwnTests.Case spaceToBatch() {
        return new Dl4jOwnTests.Case(T + "testCnnWithSpaceToBatch (minibatch 2)", normal().list().layer(conv(2, 3))
                .layer(new SpaceToBatchLayer.Builder(new int[] {1, 1}).build()).layer(softmax(4))
                .setInputType(InputType.convolutionalFlat(5, 5, 1)).build(), new long[] {2, 25}, 2, 4);
    }

    private static Dl4jOwnTests.Case upsampling() {
        return new Dl4jOwnTests.Case(T + "testCnnWithUpsampling (minibatch 3)", normal().list().layer(conv(2, 3))
                .layer(new Upsampling2D.Builder().size(2).build()).layer(softmax(4))
                .setInputType(InputType.convolutionalFlat(5, 5, 1)).build(), new long[] {3, 25}, 3, 4);
    }

    private static SubsamplingLayer pool(PoolingType type, int pnorm) {
        return new SubsamplingLayer.Builder(type).kernelSize(2, 2).stride(1, 1).padding(0, 0).pnorm(pnorm).build();
    }

    private static Dl4jOwnTests.Case subsampling(PoolingType type) {
        return new Dl4jOwnTests.Case(T + "testCnnWithSubsampling (" + type + ", minibatch 3)", normal().list()
                .layer(conv(2, 3)).layer(pool(type, 2)).layer(softmax(4))
                .setInputType(InputType.convolutionalFlat(5, 5, 1)).build(), new long[] {3, 25}, 3, 4);
    }

    private static Dl4jOwnTests.Case subsamplingV2() {
        return new Dl4jOwnTests.Case(T + "testCnnWithSubsamplingV2 (PNORM 3, minibatch 3)", normal().list()
                .layer(conv(2, 3)).layer(pool(PoolingType.PNORM, 3)).layer(conv(2, 2)).layer(softmax(4))
                .setInputType(InputType.convolutionalFlat(5, 5, 1)).build(), new long[] {3, 25}, 3, 4);
    }

    private static Dl4jOwnTests.Case locallyConnected2d() {
        return new Dl4jOwnTests.Case(T + "testCnnLocallyConnected2D (tanh, depth 2)", Dl4jOwnTests.plain()
                .activation(Activation.TANH).list().layer(conv(2, 2))
                .layer(new LocallyConnected2D.Builder().nIn(2).nOut(7).kernelSize(2, 2).setInputSize(4, 4)
                        .convolutionMode(ConvolutionMode.Strict).hasBias(false).stride(1, 1).padding(0, 0).build())
                .layer(conv(2, 2)).layer(softmax(3))
                .setInputType(InputType.convolutionalFlat(5, 5, 2)).build(), new long[] {2, 50}, 2, 3)
                .failing(Dl4jOwnTests.SAMEDIFF).slow();
    }

    private static Dl4jOwnTests.Case multiLayer() {
        return new Dl4jOwnTests.Case(T + "testCnnMultiLayer (tanh, depth 2, minibatch 2)", Dl4jOwnTests.plain()
                .activation(Activation.TANH).list().layer(conv(2, 2)).layer(conv(2, 2)).layer(conv(2, 2))
                .layer(softmax(2)).setInputType(InputType.convolutionalFlat(5, 5, 2)).build(), new long[] {2, 50},
                2, 2);
    }

    private static Dl4jOwnTests.Case samePadding() {
        SubsamplingLayer max = new SubsamplingLayer.Builder(PoolingType.MAX).kernelSize(3, 3).stride(1, 1).build();
        return new Dl4jOwnTests.Case(T + "testCnnSamePaddingMode (kernel 3, 4x5, depth 2, minibatch 3)",
                Dl4jOwnTests.plain().activation(Activation.TANH).convolutionMode(ConvolutionMode.Same).list()
                        .layer(conv(3, 2)).layer(max).layer(conv(3, 2)).layer(softmax(2))
                        .setInputType(InputType.convolutionalFlat(4, 5, 2)).build(), new long[] {3, 40}, 3, 2);
    }

    private static Dl4jOwnTests.Case samePaddingStrided() {
        return new Dl4jOwnTests.Case(T + "testCnnSamePaddingModeStrided (kernel 3, stride 2, conv first, depth 3)",
                Dl4jOwnTests.plain().activation(Activation.TANH).convolutionMode(ConvolutionMode.Same).list()
                        .layer(new ConvolutionLayer.Builder(3, 3).stride(2, 2).padding(0, 0).nOut(2).build())
                        .layer(new SubsamplingLayer.Builder(PoolingType.MAX).kernelSize(3, 3).stride(2, 2).build())
                        .layer(softmax(2)).setInputType(InputType.convolutionalFlat(16, 16, 3)).build(),
                new long[] {3, 768}, 3, 2);
    }

    private static Dl4jOwnTests.Case zeroPadding() {
        return new Dl4jOwnTests.Case(T + "testCnnZeroPaddingLayer (padding 1,1,0,0, depth 3)", normal().list()
                .layer(conv(2, 3)).layer(new ZeroPaddingLayer.Builder(1, 1, 0, 0).build()).layer(conv(2, 3))
                .layer(softmax(4)).setInputType(InputType.convolutional(6, 6, 3)).build(), new long[] {3, 3, 6, 6},
                3, 4);
    }

    private static Dl4jOwnTests.Case deconvolution() {
        return new Dl4jOwnTests.Case(T + "testDeconvolution2D (kernel 3, stride 2, dilation 2, sigmoid)",
                Dl4jOwnTests.plain().activation(Activation.SIGMOID).list()
                        .layer(new Deconvolution2D.Builder().kernelSize(3, 3).stride(2, 2).dilation(2, 2)
                                .convolutionMode(ConvolutionMode.Truncate).nOut(2).build())
                        .layer(softmax(2)).setInputType(InputType.convolutionalFlat(14, 14, 3)).build(),
                new long[] {3, 588}, 3, 2).slow();
    }

    private static Dl4jOwnTests.Case separable() {
        return new Dl4jOwnTests.Case(T + "testSeparableConv2D (kernel 3, stride 2, depth multiplier 3)",
                Dl4jOwnTests.plain().activation(Activation.TANH).convolutionMode(ConvolutionMode.Truncate).list()
                        .layer(new SeparableConvolution2D.Builder().kernelSize(3, 3).stride(2, 2).dilation(1, 1)
                                .depthMultiplier(3).nOut(2).build())
                        .layer(softmax(2)).setInputType(InputType.convolutionalFlat(8, 8, 3)).build(),
                new long[] {3, 192}, 3, 2);
    }

    /** testCnnDilated: kernel 3, dilation 2, stride 1 (Truncate, then max pooling) or kernel 2 (Same, then conv). */
    private static Dl4jOwnTests.Case dilated(boolean pooling) {
        int k = pooling ? 3 : 2;
        ConvolutionMode mode = pooling ? ConvolutionMode.Truncate : ConvolutionMode.Same;
        int side = 2 * 8;
        NeuralNetConfiguration.ListBuilder b = Dl4jOwnTests.plain().activation(Activation.TANH).convolutionMode(mode)
                .list().layer(new ConvolutionLayer.Builder().kernelSize(k, k).stride(1, 1).dilation(2, 2).nOut(2)
                        .build());
        b.layer(pooling ? new SubsamplingLayer.Builder(PoolingType.MAX).kernelSize(k, k).stride(1, 1).dilation(2, 2)
                .build() : new ConvolutionLayer.Builder().kernelSize(k, k).stride(1, 1).dilation(2, 2).nOut(2).build());
        return new Dl4jOwnTests.Case(T + "testCnnDilated (" + (pooling ? "max pooling, kernel 3, Truncate"
                : "conv, kernel 2, Same") + ", dilation 2)", b.layer(softmax(2))
                .setInputType(InputType.convolutionalFlat(side, side, 3)).build(), new long[] {3, 3L * side * side},
                3, 2).slow();
    }

    private static Dl4jOwnTests.Case cropping() {
        return new Dl4jOwnTests.Case(T + "testCropping2DLayer (crop 1,2,3,4, depth 3)", normal()
                .convolutionMode(ConvolutionMode.Same).list().layer(conv(2, 3)).layer(new Cropping2D(1, 2, 3, 4))
                .layer(conv(2, 3)).layer(softmax(4)).setInputType(InputType.convolutional(11, 12, 3)).build(),
                new long[] {3, 3, 11, 12}, 3, 4).slow();
    }
}
