// bench/dl4j: configurations of DL4J's own gradient-check tests (deeplearning4j-core's gradientcheck package:
// BNGradientCheckTest, CapsnetGradientCheckTest, LSTMGradientCheckTests here; CNNGradientCheckTest in
// Dl4jOwnCnnTests; GradientCheckTests in Dl4jOwnMlpTests; GlobalPoolingGradientCheckTests and
// CNN1DGradientCheckTest in Dl4jOwnPoolingAnd1dTests; LossFunctionGradientCheck in Dl4jOwnLossTests), run by
// GradientCheckUtil as those tests run them and by gradcheck as `network:` specs of the same configuration (each
// layer at its activations), side by side. `--write SPECS BENCH` writes them as spec files instead (Dl4jOwnSpecs).
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
import org.deeplearning4j.nn.conf.ComputationGraphConfiguration;
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
import org.deeplearning4j.nn.conf.layers.GravesBidirectionalLSTM;
import org.deeplearning4j.nn.conf.layers.GravesLSTM;
import org.deeplearning4j.nn.conf.layers.LSTM;
import org.deeplearning4j.nn.conf.layers.LossLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.conf.layers.PrimaryCapsules;
import org.deeplearning4j.nn.conf.layers.RnnOutputLayer;
import org.deeplearning4j.nn.conf.layers.SubsamplingLayer;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.weights.WeightInitDistribution;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.NoOp;
import org.nd4j.linalg.lossfunctions.LossFunctions.LossFunction;

final class Dl4jOwnTests {

    /** Where a case's spec goes: the spec suite, the heavy file beside the real sizes, or the bench's table only. */
    enum Place { SUITE, HEAVY, TABLE_ONLY }

    /**
     * One of DL4J's tests: its network's configuration (a MultiLayerConfiguration's or ComputationGraphConfiguration's
     * JSON), the input's shape, its one-hot labels' shape ([batch, classes], or [batch, classes, steps] for a
     * recurrent output); the input's and labels' values where the test gives them (else null: the input uniform on
     * [0, 1], one-hot labels); what gradcheck is expected to say (a spec's {@code expect}, null for pass) and why;
     * where its spec goes (HEAVY: over about 3 s under load, outside the suite).
     */
    record Case(String test, String json, long[] shape, long[] labels, INDArray x, INDArray y, String expect,
                String reason, Place place) {
        Case(String test, MultiLayerConfiguration conf, long[] shape, long... labels) {
            this(test, conf.toJson(), shape, labels, null, null, null, null, Place.SUITE);
        }

        /** A Jacobian mismatch expected, for this reason. */
        Case failing(String why) {
            return new Case(test, json, shape, labels, x, y, "{fail: [jacobian]}", why, place);
        }

        /** DL4J throws, for this reason. */
        Case erroring(String why) {
            return new Case(test, json, shape, labels, x, y, "error", why, place);
        }

        Case values(INDArray input, INDArray output) {
            return new Case(test, json, shape, labels, input, output, expect, reason, place);
        }

        Case slow() {
            return at(Place.HEAVY);
        }

        Case at(Place where) {
            return new Case(test, json, shape, labels, x, y, expect, reason, where);
        }

        boolean graph() {
            return json.contains("\"vertices\"");
        }

        /** The spec's name and its network file's: the test's name in lower case, words joined by dashes. */
        String slug() {
            return test.replace(".test", ".").replace("GradientCheckTests", "").replace("GradientCheckTest", "")
                    .replace("LossFunctionGradientCheck.lossFunctionGradientCheck", "loss").replaceAll("[^A-Za-z0-9]+",
                    "-").replaceAll("(^-|-$)", "").toLowerCase(Locale.ROOT);
        }
    }

    /** A test's builder: float64, no updater step (NoOp), its seed. */
    static NeuralNetConfiguration.Builder plain() {
        return new NeuralNetConfiguration.Builder().dataType(DataType.DOUBLE).updater(new NoOp()).seed(12345);
    }

    /** Where the tests name the layers' weight distribution. */
    static NeuralNetConfiguration.Builder drawn(org.deeplearning4j.nn.conf.distribution.Distribution d) {
        return plain().weightInit(new WeightInitDistribution(d));
    }

    private static NeuralNetConfiguration.ListBuilder base(org.deeplearning4j.nn.conf.distribution.Distribution d) {
        return drawn(d).list();
    }

    static List<Case> cases() {
        List<Case> all = new java.util.ArrayList<>(ownCases());
        all.addAll(Dl4jOwnCnnTests.cases());
        all.addAll(Dl4jOwnMlpTests.cases());
        all.addAll(Dl4jOwnPoolingAnd1dTests.cases());
        all.addAll(Dl4jOwnLossTests.cases());
        return all;
    }

    private static List<Case> ownCases() {
        return List.of(
                new Case("BNGradientCheckTest.testGradient2dSimple", base(new NormalDistribution(0, 1))
                        .layer(new DenseLayer.Builder().nIn(4).nOut(3).activation(Activation.IDENTITY).build())
                        .layer(new BatchNormalization.Builder().nOut(3).build())
                        .layer(new ActivationLayer.Builder().activation(Activation.TANH).build())
                        .layer(new OutputLayer.Builder(LossFunction.MCXENT).activation(Activation.SOFTMAX).nIn(3)
                                .nOut(3).build()).build(), new long[] {10, 4}, 10, 3),
                new Case("BNGradientCheckTest.testGradientCnnSimple", base(new NormalDistribution(0, 2))
                        .layer(new ConvolutionLayer.Builder().kernelSize(2, 2).stride(1, 1).nOut(2)
                                .activation(Activation.IDENTITY).build())
                        .layer(new BatchNormalization.Builder().build())
                        .layer(new ActivationLayer.Builder().activation(Activation.TANH).build())
                        .layer(new OutputLayer.Builder(LossFunction.MCXENT).activation(Activation.SOFTMAX).nOut(4)
                                .build())
                        .setInputType(InputType.convolutional(4, 4, 1)).build(), new long[] {10, 1, 4, 4}, 10, 4),
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
                        .setInputType(InputType.convolutional(5, 5, 2)).build(), new long[] {10, 2, 5, 5}, 10, 3)
                        .slow(),
                new Case("CapsnetGradientCheckTest.testCapsNet (2 dims, 4 capsule dims, minibatch 8)",
                        base(new UniformDistribution(-6, 6))
                        .layer(new PrimaryCapsules.Builder(2, 8).kernelSize(3, 3).stride(2, 2).build())
                        .layer(new CapsuleLayer.Builder(5, 4, 1).build())
                        .layer(new CapsuleStrengthLayer.Builder().build())
                        .layer(new ActivationLayer.Builder().activation(Activation.SOFTMAX).build())
                        .layer(new LossLayer.Builder(LossFunction.NEGATIVELOGLIKELIHOOD).build())
                        .setInputType(InputType.convolutional(6, 6, 4)).build(), new long[] {8, 4, 6, 6}, 8, 5)
                        .failing(SAMEDIFF).slow(),
                lstmBasic(false), lstmBasic(true),
                new Case("LSTMGradientCheckTests.testGradientLSTMFull (LSTM, softsign, MSE with tanh)",
                        base(new NormalDistribution(0, 1))
                        .layer(new LSTM.Builder().nIn(7).nOut(9).activation(Activation.SOFTSIGN).build())
                        .layer(new RnnOutputLayer.Builder(LossFunction.MSE).activation(Activation.TANH).nIn(9)
                                .nOut(4).build()).build(), new long[] {6, 7, 8}, 6, 4, 8).slow(),
                new Case("LSTMGradientCheckTests.testGradientGravesBidirectionalLSTMFull (tanh, MCXENT)",
                        base(new NormalDistribution(0, 1))
                        .layer(new GravesBidirectionalLSTM.Builder().nIn(2).nOut(2).activation(Activation.TANH)
                                .build())
                        .layer(new RnnOutputLayer.Builder(LossFunction.MCXENT).activation(Activation.SOFTMAX).nIn(2)
                                .nOut(2).build()).build(), new long[] {3, 2, 4}, 3, 2, 4));
    }

    /** Why a network holding a SameDiff-defined layer fails: docs/dl4j-findings.md. */
    static final String SAMEDIFF = "DL4J's SameDiff-defined layers return twice the gradient of their forward (ND4J's"
            + " ExternalErrorsFunction adds the gradient it receives to itself). docs/dl4j-findings.md";

    /** Why a softmax MCXENT output far from its labels fails: docs/dl4j-findings.md. */
    static final String MCXENT_CLIP = "DL4J's MCXENT clips a softmax probability under 1e-10 in its score but not in"
            + " its gradient (p - y): where a label's probability is that small the score is flat and the gradient is"
            + " not; GradientCheckUtil sets the clip to 0 before it checks. docs/dl4j-findings.md";

    /** LSTMGradientCheckTests.testLSTMBasicMultiLayer: two sigmoid LSTMs (or GravesLSTMs) of 2, softmax output. */
    private static Case lstmBasic(boolean graves) {
        org.deeplearning4j.nn.conf.layers.Layer[] lstm = new org.deeplearning4j.nn.conf.layers.Layer[2];
        for (int i = 0; i < 2; i++) {
            lstm[i] = graves ? new GravesLSTM.Builder().nIn(2).nOut(2).activation(Activation.SIGMOID).build()
                    : new LSTM.Builder().nIn(2).nOut(2).activation(Activation.SIGMOID).build();
        }
        return new Case("LSTMGradientCheckTests.testLSTMBasicMultiLayer (" + (graves ? "GravesLSTM" : "LSTM") + ")",
                base(new NormalDistribution(0, 1)).layer(lstm[0]).layer(lstm[1])
                        .layer(new RnnOutputLayer.Builder(LossFunction.MCXENT).activation(Activation.SOFTMAX).nIn(2)
                                .nOut(2).build()).build(), new long[] {5, 2, 4}, 5, 2, 4);
    }

    /**
     * This table alone ({@code bench/dl4j/run} prints it after SideBySide's); with {@code --write DIR} the cases as
     * spec files instead (Dl4jOwnSpecs.write: {@code --write SPECS BENCH}).
     */
    public static void main(String[] args) throws Exception {
        Nd4j.setDefaultDataTypes(DataType.DOUBLE, DataType.DOUBLE);
        if (args.length == 3 && args[0].equals("--write")) {
            Dl4jOwnSpecs.write(cases(), Path.of(args[1]), Path.of(args[2]));
            return;
        }
        try (InProcessBackend gradcheck = InProcessBackend.withPlugins(dev.gradcheck.result.Engine.CPU,
                dev.gradcheck.op.plugin.PluginSet.EMPTY, dev.gradcheck.spec.MemoryBudget.forThisJvm())) {
            table(gradcheck, args.length == 1 ? args[0] : "");
        }
    }

    /** The table of the cases whose test's name starts with {@code prefix} (all, for ""). */
    static void table(InProcessBackend gradcheck, String prefix) throws Exception {
        System.out.println();
        System.out.println("| DL4J's test (configuration) | GradientCheckUtil | its time | gradcheck (network: spec)"
                + " | its time | layers gradcheck finds wrong |");
        System.out.println("|---|---|---|---|---|---|");
        Path dir = Files.createTempDirectory("dl4j-own-tests");
        for (Case c : cases()) {
            if (c.test().startsWith(prefix)) {
                row(c, gradcheck, dir);
            }
        }
    }

    /**
     * BatchNormalization's running mean and variance: state, not trained (their updater is NoOp), which DL4J's own
     * BN tests exclude; perturbed, they fail GradientCheckUtil in training mode, where the forward ignores them.
     */
    private static java.util.Set<String> batchNormState(org.deeplearning4j.nn.api.Model net) {
        java.util.Set<String> state = new java.util.HashSet<>();
        for (String name : net.paramTable().keySet()) {
            if (name.endsWith("_mean") || name.endsWith("_var") || name.endsWith("_log10stdev")) {
                state.add(name);
            }
        }
        return state;
    }

    /** The input GradientCheckUtil sees: the test's values, or uniform on [0, 1] from seed 12345. */
    static INDArray input(Case c) {
        Nd4j.getRandom().setSeed(12345);
        return c.x() != null ? c.x() : Nd4j.rand(DataType.DOUBLE, c.shape());
    }

    /** The labels: the test's values, or one-hot: example i (at step t) of class (i + t) mod classes. */
    static INDArray labels(Case c) {
        if (c.y() != null) {
            return c.y();
        }
        long[] shape = c.labels();
        INDArray labels = Nd4j.zeros(DataType.DOUBLE, shape);
        long steps = shape.length == 3 ? shape[2] : 1;
        for (int i = 0; i < shape[0]; i++) {
            for (int t = 0; t < steps; t++) {
                long k = (i + t) % shape[1];
                labels.putScalar(shape.length == 3 ? new long[] {i, k, t} : new long[] {i, k}, 1.0);
            }
        }
        return labels;
    }

    private static boolean dl4jVerdict(Case c, INDArray x, INDArray labels) {
        if (c.graph()) {
            ComputationGraph net = new ComputationGraph(ComputationGraphConfiguration.fromJson(c.json()));
            net.init();
            return GradientCheckUtil.checkGradients(new GradientCheckUtil.GraphConfig().net(net)
                    .inputs(new INDArray[] {x}).labels(new INDArray[] {labels}).epsilon(1e-6).maxRelError(1e-3)
                    .minAbsoluteError(1e-8).excludeParams(batchNormState(net))
                    .print(GradientCheckUtil.PrintMode.ZEROS));
        }
        MultiLayerNetwork net = new MultiLayerNetwork(MultiLayerConfiguration.fromJson(c.json()));
        net.init();
        return GradientCheckUtil.checkGradients(new GradientCheckUtil.MLNConfig().net(net).input(x)
                .labels(labels).epsilon(1e-6).maxRelError(1e-3).minAbsoluteError(1e-8)
                .excludeParams(batchNormState(net)).print(GradientCheckUtil.PrintMode.ZEROS));
    }

    private static void row(Case c, InProcessBackend gradcheck, Path dir) throws Exception {
        INDArray x = input(c);
        INDArray labels = labels(c);
        long start = System.nanoTime();
        boolean gcu = dl4jVerdict(c, x, labels);
        double gcuSeconds = (System.nanoTime() - start) / 1e9;

        Files.writeString(dir.resolve(c.slug() + ".json"), c.json());
        String yaml = Dl4jOwnSpecs.spec(c, c.slug() + ".json", false);
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
