// bench/dl4j: configurations of DL4J's GradientCheckTests (deeplearning4j-core), one variant of each test method's
// loops (named in the case), as facts. Iris features are replaced by a uniform draw of the same shape (the data set
// is not shipped); where a test gives its own values (indices, the element-wise test's features), they are kept.
import java.util.List;
import java.util.Random;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.RNNFormat;
import org.deeplearning4j.nn.conf.distribution.NormalDistribution;
import org.deeplearning4j.nn.conf.distribution.UniformDistribution;
import org.deeplearning4j.nn.conf.layers.AutoEncoder;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.EmbeddingLayer;
import org.deeplearning4j.nn.conf.layers.EmbeddingSequenceLayer;
import org.deeplearning4j.nn.conf.layers.LossLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.RnnOutputLayer;
import org.deeplearning4j.nn.conf.layers.misc.ElementWiseMultiplicationLayer;
import org.deeplearning4j.nn.weights.WeightInit;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

final class Dl4jOwnMlpTests {

    private static final String T = "GradientCheckTests.";

    private Dl4jOwnMlpTests() {
    }

    static List<Dl4jOwnTests.Case> cases() {
        return List.of(mlp(Activation.SIGMOID, LossFunction.MCXENT, false), mlp(Activation.TANH, LossFunction.MSE,
                false), mlp(Activation.TANH, LossFunction.MSE, true), embedding(), autoEncoder(),
                elementWiseMultiplication(), embeddingSequence());
    }

    private static Activation outputFor(LossFunction loss) {
        return loss == LossFunction.MCXENT ? Activation.SOFTMAX : Activation.TANH;
    }

    /** testGradientMLP2LayerIrisSimple / testGradientMLP2LayerIrisL1L2Simple (l2 0.4, l1 0.5, bias l1 0.6). */
    private static Dl4jOwnTests.Case mlp(Activation hidden, LossFunction loss, boolean regularised) {
        NeuralNetConfiguration.Builder b = Dl4jOwnTests.drawn(new NormalDistribution(0, 1));
        if (regularised) {
            b.l2(0.4).l1(0.5).l2Bias(0.0).l1Bias(0.6);
        }
        String name = regularised ? "testGradientMLP2LayerIrisL1L2Simple" : "testGradientMLP2LayerIrisSimple";
        return new Dl4jOwnTests.Case(T + name + " (" + hidden + ", " + loss + " with " + outputFor(loss)
                + (regularised ? ", l2 0.4, l1 0.5, bias l1 0.6" : "") + ")", b.list()
                .layer(new DenseLayer.Builder().nIn(4).nOut(3).activation(hidden).build())
                .layer(new OutputLayer.Builder(loss).activation(outputFor(loss)).nIn(3).nOut(3).build()).build(),
                new long[] {10, 4}, 10, 3);
    }

    /** testEmbeddingLayerSimple: 5 indices in 0..3 drawn by java.util.Random(12345), as the test draws them. */
    private static Dl4jOwnTests.Case embedding() {
        Random r = new Random(12345);
        INDArray indices = Nd4j.zeros(DataType.DOUBLE, 5, 1);
        for (int i = 0; i < 5; i++) {
            indices.putScalar(i, r.nextInt(4));
        }
        return new Dl4jOwnTests.Case(T + "testEmbeddingLayerSimple (l2 0.2, l1 0.1)", Dl4jOwnTests.plain()
                .l2(0.2).l1(0.1).weightInit(WeightInit.XAVIER).list()
                .layer(new EmbeddingLayer.Builder().nIn(4).nOut(3).activation(Activation.TANH).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nIn(3).nOut(3).activation(Activation.SOFTMAX)
                        .build()).build(), new long[] {5, 1}, 5, 3).values(indices, null);
    }

    private static Dl4jOwnTests.Case autoEncoder() {
        return new Dl4jOwnTests.Case(T + "testAutoEncoder (sigmoid, MCXENT, l2 0.2)", Dl4jOwnTests
                .drawn(new NormalDistribution(0, 1)).l2(0.2).list()
                .layer(new AutoEncoder.Builder().nIn(4).nOut(3).activation(Activation.SIGMOID).build())
                .layer(new OutputLayer.Builder(LossFunction.MCXENT).nIn(3).nOut(3).activation(Activation.SOFTMAX)
                        .build()).build(), new long[] {10, 4}, 10, 3);
    }

    /**
     * elementWiseMultiplicationLayerTest (tanh): the test's ComputationGraph is a chain (dense, element-wise
     * multiplication, cosine-proximity loss), built here as the graph it is; its features and labels are the test's.
     */
    private static Dl4jOwnTests.Case elementWiseMultiplication() {
        String json = Dl4jOwnTests.drawn(new UniformDistribution(0, 1)).graphBuilder().addInputs("features")
                .addLayer("dense", new DenseLayer.Builder().nIn(4).nOut(4).activation(Activation.TANH).build(),
                        "features")
                .addLayer("elementWiseMul", new ElementWiseMultiplicationLayer.Builder().nIn(4).nOut(4)
                        .activation(Activation.TANH).build(), "dense")
                .addLayer("loss", new LossLayer.Builder(LossFunction.COSINE_PROXIMITY).activation(Activation.IDENTITY)
                        .build(), "elementWiseMul")
                .setOutputs("loss").build().toJson();
        INDArray features = Nd4j.create(new double[][] {{1, 2, 3, 4}, {1, 2, 3, 1}, {1, 2, 3, 0}});
        INDArray labels = Nd4j.create(new double[][] {{1, 1, 1, 8}, {1, 1, 1, 2}, {1, 1, 1, 1}});
        return new Dl4jOwnTests.Case(T + "elementWiseMultiplicationLayerTest (tanh)", json, new long[] {3, 4},
                new long[] {3, 4}, features, labels, null, null, Dl4jOwnTests.Place.SUITE);
    }

    /**
     * testEmbeddingSequenceLayer (no mask): indices in 0..7 over 6 steps, labels uniform on [0, 1]. The output layer
     * is told its NCW format, as the embedding's output is: without it M2.1's RnnOutputLayer reads the labels as NWC
     * and refuses them (the test predates RNNFormat).
     */
    private static Dl4jOwnTests.Case embeddingSequence() {
        Nd4j.getRandom().setSeed(12345);
        INDArray indices = Nd4j.rand(DataType.DOUBLE, 3, 6).muli(8);
        indices = org.nd4j.linalg.ops.transforms.Transforms.floor(indices, false);
        INDArray labels = Nd4j.rand(DataType.DOUBLE, 3, 3, 6);
        return new Dl4jOwnTests.Case(T + "testEmbeddingSequenceLayer (no mask)", Dl4jOwnTests
                .drawn(new NormalDistribution(0, 1)).list()
                .layer(new EmbeddingSequenceLayer.Builder().nIn(8).nOut(4).build())
                .layer(new RnnOutputLayer.Builder().nIn(4).nOut(3).activation(Activation.TANH)
                        .lossFunction(LossFunction.MSE).dataFormat(RNNFormat.NCW).build()).build(),
                new long[] {3, 6}, 3, 3, 6)
                .values(indices, labels);
    }
}
