// bench/dl4j: DL4J's own GradientCheckUtil and gradcheck on the same layers, in one JVM, one after the other.
import dev.gradcheck.backend.CheckRequest;
import dev.gradcheck.backend.nd4j.InProcessBackend;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.SpecLoader;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.deeplearning4j.gradientcheck.GradientCheckUtil;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.BatchNormalization;
import org.deeplearning4j.nn.conf.layers.CnnLossLayer;
import org.deeplearning4j.nn.conf.layers.ConvolutionLayer;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.LSTM;
import org.deeplearning4j.nn.conf.layers.Layer;
import org.deeplearning4j.nn.conf.layers.LossLayer;
import org.deeplearning4j.nn.conf.layers.RnnLossLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.NoOp;
import org.nd4j.linalg.lossfunctions.LossFunctions;

public final class SideBySide {

    /** One layer: its DL4J configuration for GradientCheckUtil, the same as a spec for gradcheck, its input. */
    record Case(String name, Layer layer, Layer loss, long[] shape, String spec) {}

    /** DL4J's convolution with a deliberately wrong backward (src/WrongConvolution.java). */
    static WrongConvolution wrong(String flaw) {
        WrongConvolution conv = new WrongConvolution();
        conv.setFlaw(flaw);
        conv.setNIn(3);
        conv.setNOut(4);
        conv.setKernelSize(new int[] {3, 3});
        conv.setActivationFn(Activation.TANH.getActivationFunction());
        return conv;
    }

    static List<Case> cases() {
        Layer mseCnn = new CnnLossLayer.Builder(LossFunctions.LossFunction.MSE).activation(Activation.IDENTITY).build();
        Layer mse = new LossLayer.Builder(LossFunctions.LossFunction.MSE).activation(Activation.IDENTITY).build();
        Layer mseRnn = new RnnLossLayer.Builder(LossFunctions.LossFunction.MSE).activation(Activation.IDENTITY).build();
        WrongConvolution wrong = wrong("weights");
        WrongConvolution wrongInput = wrong("input");
        return List.of(
                new Case("conv 3->4, 3x3, on 2x3x6x6", new ConvolutionLayer.Builder(3, 3).nIn(3).nOut(4)
                        .activation(Activation.TANH).build(), mseCnn, new long[] {2, 3, 6, 6},
                        "layer: {type: ConvolutionLayer, nOut: 4, kernelSize: [3, 3], activation: tanh}"),
                new Case("conv 8->8, 3x3 pad 1, on 2x8x16x16", new ConvolutionLayer.Builder(3, 3).nIn(8).nOut(8)
                        .padding(1, 1).activation(Activation.TANH).build(), mseCnn, new long[] {2, 8, 16, 16},
                        "layer: {type: ConvolutionLayer, nOut: 8, kernelSize: [3, 3], padding: [1, 1], activation: tanh}"),
                new Case("conv 3->4 with W's gradient x1.01 (WrongConvolution)", wrong, mseCnn,
                        new long[] {2, 3, 6, 6}, "layer: {type: WrongConvolution, flaw: weights, nOut: 4,"
                        + " kernelSize: [3, 3], activation: tanh}"),
                new Case("conv 3->4 with its input gradient transposed (WrongConvolution)", wrongInput, mseCnn,
                        new long[] {2, 3, 6, 6}, "layer: {type: WrongConvolution, flaw: input, nOut: 4,"
                        + " kernelSize: [3, 3], activation: tanh}"),
                new Case("dense 64->32", new DenseLayer.Builder().nIn(64).nOut(32).activation(Activation.TANH)
                        .build(), mse, new long[] {8, 64},
                        "layer: {type: DenseLayer, nOut: 32, activation: tanh}"),
                new Case("LSTM 8->8 over 10 steps", new LSTM.Builder().nIn(8).nOut(8).activation(Activation.TANH)
                        .build(), mseRnn, new long[] {2, 8, 10}, "layer: {type: LSTM, nOut: 8, activation: tanh}"),
                new Case("BatchNormalization (training) on 8x16", new BatchNormalization.Builder().nIn(16).nOut(16)
                        .build(), mse, new long[] {8, 16}, "layer: {type: BatchNormalization}"));
    }

    public static void main(String[] args) throws Exception {
        Nd4j.setDefaultDataTypes(DataType.DOUBLE, DataType.DOUBLE);
        System.out.println("| layer | GradientCheckUtil | its time | what it perturbs | gradcheck | its time"
                + " | what it checks |");
        System.out.println("|---|---|---|---|---|---|---|");
        try (InProcessBackend gradcheck = InProcessBackend.withPlugins(Engine.CPU, PluginSet.EMPTY,
                MemoryBudget.forThisJvm())) {
            for (Case c : cases()) {
                row(c, gradcheck);
            }
            Dl4jOwnTests.table(gradcheck, "");
        }
    }

    static void row(Case c, InProcessBackend gradcheck) throws Exception {
        MultiLayerNetwork net = new MultiLayerNetwork(new NeuralNetConfiguration.Builder().seed(7)
                .dataType(DataType.DOUBLE).updater(new NoOp()).list().layer(c.layer()).layer(c.loss()).build());
        net.init();
        Nd4j.getRandom().setSeed(7);
        INDArray x = Nd4j.rand(DataType.DOUBLE, c.shape()).subi(0.5).muli(2);
        INDArray labels = Nd4j.rand(DataType.DOUBLE, net.output(x).shape());
        long start = System.nanoTime();
        boolean gcu = GradientCheckUtil.checkGradients(new GradientCheckUtil.MLNConfig().net(net).input(x)
                .labels(labels).epsilon(1e-6).maxRelError(1e-3).minAbsoluteError(1e-8)
                .excludeParams(java.util.Set.of("0_mean", "0_var", "0_log10stdev")) // as DL4J's BN tests do
                .print(GradientCheckUtil.PrintMode.ZEROS));
        double gcuSeconds = (System.nanoTime() - start) / 1e9;

        String yaml = "name: bench\n" + c.spec() + "\ninputs:\n  x: {shape: " + java.util.Arrays.toString(c.shape())
                + "}\n";
        start = System.nanoTime();
        CheckResult r = gradcheck.run(CheckRequest.of(new SpecLoader().loadText("bench.yaml", "bench", yaml).get(0)
                .specOrThrow()));
        double gcSeconds = (System.nanoTime() - start) / 1e9;
        String rows = r.gradients().stream().filter(g -> g.kind().name().equals("JACOBIAN"))
                .map(g -> g.input() + (g.verdict().name().equals("PASS") ? "" : " FAILS"))
                .collect(Collectors.joining(", "));
        System.out.printf(Locale.ROOT, "| %s | %s | %.2f s | %d parameters, 2 network forwards each | %s | %.2f s"
                + " | %s |%n", c.name(), gcu ? "pass" : "FAIL", gcuSeconds, net.numParams(), r.status(), gcSeconds,
                rows);
    }
}
