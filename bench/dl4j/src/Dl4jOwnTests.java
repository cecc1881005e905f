// bench/dl4j: configurations of DL4J's own gradient-check tests (deeplearning4j-core's gradientcheck package:
// BNGradientCheckTest, CapsnetGradientCheckTest), run by GradientCheckUtil as those tests run them and by gradcheck
// as `network:` specs of the same configuration (each layer at its activations), side by side.
import dev.gradcheck.backend.CheckRequest;
import dev.gradcheck.backend.nd4j.InProcessBackend;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.NodeFinding;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import dev.gradcheck.spec.SpecLoader;
import org.deeplearning4j.gradientcheck.GradientCheckUtil;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.distribution.NormalDistribution;
import org.deeplearning4j.nn.conf.distribution.UniformDistribution;
import org.deeplearning4j.nn.conf.inputs.InputType;
import org.deeplearning4j.nn.conf.layers.ActivationLayer;
import org.deeplearning4j.nn.conf.layers.BatchNormalization;
import org.deeplearning4j.nn.conf.layers.CapsuleLayer;
import org.deeplearning4j.nn.conf.layers.CapsuleStrengthLayer;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.LossLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.PrimaryCapsules;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInitDistribution;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.NoOp;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

final class Dl4jOwnTests {

    /** One of DL4J's tests: its network, the input's shape, the number of classes of its one-hot labels. */
    record Case(String test, MultiLayerConfiguration conf, long[] shape, int classes) {}

    private static NeuralNetConfiguration.ListBuilder base(org.deeplearning4j.nn.conf.distribution.Distribution d) {
        return new NeuralNetConfiguration.Builder().dataType(DataType.DOUBLE).updater(new NoOp()).seed(12345)
                .weightInit(new WeightInitDistribution(d)).list();
    }

    static List<Case> cases() {
        return List.of(
                new Case("BNGradientCheckTest.testGradient2dSimple", base(new NormalDistribution(0, 1))
                        .layer(new DenseLayer.Builder().nIn(4).nOut(3).activation(Activation.IDENTITY).build())
                        .layer(new BatchNormalization.Builder().nOut(3).build())
                        .layer(new ActivationLayer.Builder().activation(Activation.TANH).build())
                        .layer(new OutputLayer.Builder(LossFunction.MCXENT).activation(Activation.SOFTMAX).nIn(3)
                                .nOut(3).build()).build(), new long[] {10, 4}, 3),
                new Case("BNGradientCheckTest.testGradientCnnSimple", base(new NormalDistribution(0, 2))
                        .layer(new ConvolutionLayer.Builder().kernelSize(2, 2).stride(1, 1).nOut(2)
                                .activation(Activation.IDENTITY).build())
                        .layer(new BatchNormalization.Builder().build())
                        .layer(new ActivationLayer.Builder().activation(Activation.TANH).build())
                        .layer(new OutputLayer.Builder(LossFunction.MCXENT).activation(Activation.SOFTMAX).nOut(4)
                                .build())
                        .setInputType(InputType.convolutional(4, 4, 1)).build(), new long[] {10, 1, 4, 4}, 4),
                new Case("BNGradientCheckTest.testGradientBNWithCNNandSubsampling (tanh, NLL)",
                        base(new UniformDistribution(-2, 2))
                        .layer(new ConvolutionLayer.Builder(2, 2).stride(1, 1).nOut(3).activation(Activation.TANH)
                                .build())
                        .layer(new BatchNormalization.Builder().build())
                        .layer(new SubsamplingLayer.Builder(SubsamplingLayer.PoolingType.MAX).kernelSize(2, 2)
                                .stride(1, 1).build())
                        .layer(new BatchNormalization())
                        .layer(new ActivationLayer.Builder().activation(Activation.TANH).build())
                        .layer(new OutputLayer.Builder(LossFunction.NEGATIVELOGLIKELIHOOD)
                                .activation(Activation.SOFTMAX).nOut(3).build())
                        .setInputType(InputType.convolutional(5, 5, 2)).build(), new long[] {10, 2, 5, 5}, 3),
                new Case("CapsnetGradientCheckTest.testCapsNet (2 dims, 4 capsule dims, minibatch 8)",
                        base(new UniformDistribution(-6, 6))
                        .layer(new PrimaryCapsules.Builder(2, 8).kernelSize(3, 3).stride(2, 2).build())
                        .layer(new CapsuleLayer.Builder(5, 4, 1).build())
                        .layer(new CapsuleStrengthLayer.Builder().build())
                        .layer(new ActivationLayer.Builder().activation(Activation.SOFTMAX).build())
                        .layer(new LossLayer.Builder(LossFunction.NEGATIVELOGLIKELIHOOD).build())
                        .setInputType(InputType.convolutional(6, 6, 4)).build(), new long[] {8, 4, 6, 6}, 5));
    }

    /** This table alone: {@code bench/dl4j/run} prints it after SideBySide's. */
    public static void main(String[] args) throws Exception {
        Nd4j.setDefaultDataTypes(DataType.DOUBLE, DataType.DOUBLE);
        try (InProcessBackend gradcheck = InProcessBackend.withPlugins(dev.gradcheck.result.Engine.CPU,
                dev.gradcheck.op.plugin.PluginSet.EMPTY, dev.gradcheck.spec.MemoryBudget.forThisJvm())) {
            table(gradcheck);
        }
    }

    static void table(InProcessBackend gradcheck) throws Exception {
        System.out.println();
        System.out.println("| DL4J's test (configuration) | GradientCheckUtil | its time | gradcheck (network: spec)"
                + " | its time | layers gradcheck finds wrong |");
        System.out.println("|---|---|---|---|---|---|");
        Path dir = Files.createTempDirectory("dl4j-own-tests");
        for (Case c : cases()) {
            row(c, gradcheck, dir);
        }
    }

    /**
     * BatchNormalization's running mean and variance: state, not trained (their updater is NoOp), which DL4J's own
     * BN tests exclude; perturbed, they fail GradientCheckUtil in training mode, where the forward ignores them.
     */
    private static java.util.Set<String> batchNormState(MultiLayerNetwork net) {
        java.util.Set<String> state = new java.util.HashSet<>();
        for (int i = 0; i < net.getnLayers(); i++) {
            if (net.getLayer(i).conf().getLayer() instanceof BatchNormalization) {
                for (String p : List.of("mean", "var", "log10stdev")) {
                    state.add(i + "_" + p);
                }
            }
        }
        return state;
    }

    private static INDArray oneHot(long rows, int classes) {
        INDArray labels = Nd4j.zeros(DataType.DOUBLE, rows, classes);
        for (int i = 0; i < rows; i++) {
            labels.putScalar(i, i % classes, 1.0);
        }
        return labels;
    }

    private static void row(Case c, InProcessBackend gradcheck, Path dir) throws Exception {
        MultiLayerNetwork net = new MultiLayerNetwork(c.conf().clone());
        net.init();
        Nd4j.getRandom().setSeed(12345);
        INDArray x = Nd4j.rand(DataType.DOUBLE, c.shape());
        INDArray labels = oneHot(c.shape()[0], c.classes());
        long start = System.nanoTime();
        boolean gcu = GradientCheckUtil.checkGradients(new GradientCheckUtil.MLNConfig().net(net).input(x)
                .labels(labels).epsilon(1e-6).maxRelError(1e-3).minAbsoluteError(1e-8)
                .excludeParams(batchNormState(net)).print(GradientCheckUtil.PrintMode.ZEROS));
        double gcuSeconds = (System.nanoTime() - start) / 1e9;

        Path json = dir.resolve("net" + Math.abs(c.test().hashCode()) + ".json");
        Files.writeString(json, c.conf().toJson());
        String yaml = "name: own\nnetwork: " + json.getFileName() + "\ninputs:\n  x: {shape: "
                + java.util.Arrays.toString(c.shape()) + ", init: {uniform: [0, 1]}}\n  labels: {shape: ["
                + c.shape()[0] + ", " + c.classes() + "], init: {values: " + labels.toString()
                .replaceAll("\\s+", "") + "}}\n";
        Path spec = dir.resolve("own.yaml");
        Files.writeString(spec, yaml);
        start = System.nanoTime();
        CheckResult r = gradcheck.run(CheckRequest.of(new SpecLoader().loadText(spec.toString(), "own", yaml)
                .get(0).specOrThrow()));
        double gcSeconds = (System.nanoTime() - start) / 1e9;
        String wrong = r.nodes().stream().filter(NodeFinding::wrong)
                .map(n -> n.node() + " " + n.op() + (n.worst() == null ? "" : " (" + n.worst().input() + ")"))
                .collect(Collectors.joining(", "));
        System.out.printf(Locale.ROOT, "| %s | %s | %.2f s | %s | %.2f s | %s |%n", c.test(), gcu ? "pass" : "FAIL",
                gcuSeconds, r.status(), gcSeconds, wrong.isEmpty() ? "none" : wrong);
    }
}
