package dev.gradcheck.op.catalog;

import java.util.List;
import java.util.Optional;

/**
 * The Deeplearning4j layers a spec's {@code layer:} can name, as the front end knows them: names and what each
 * takes, with no DL4J class loaded (list-ops, new, suggestions). op/'s {@code LayerConfigs} resolves a name in
 * DL4J's packages, so a layer missing here still runs; LayerTypesTest holds that every name here resolves there.
 *
 * @param name    the configuration class's simple name, as {@code layer: {type: ...}} writes it
 * @param input   the input's layout, as DL4J expects it
 * @param params  the parameters DL4J gives it (with its default options), each checked
 * @param summary one line
 * @param options an example's options, as a YAML flow mapping's content ({@code gradcheck new TYPE})
 * @param inputs  the example's inputs, as the lines under {@code inputs:}
 */
public record LayerTypes(String name, String input, List<String> params, String summary, String options,
                         String inputs) {

    /** A spec of this layer to start from, as {@code gradcheck new} prints it. */
    public String example(String specName) {
        return "name: " + specName + "\nlayer: {type: " + name + (options.isEmpty() ? "" : ", " + options)
                + "}\ninputs:\n  " + inputs + "\n";
    }

    private static final String VERTEX_INPUT = "every input, in order (a graph vertex)";
    private static final String TWO_2X3 = "a: {shape: [2, 3]}\n  b: {shape: [2, 3]}";

    private static final List<LayerTypes> ALL = List.of(
            new LayerTypes("ConvolutionLayer", "[batch, channels, height, width] (NCHW)", List.of("W", "b"),
                    "2-d convolution, then the activation",
                    "nOut: 4, kernelSize: [3, 3], activation: tanh", "x: {shape: [2, 3, 8, 8]}"),
            new LayerTypes("Convolution1DLayer", "[batch, channels, steps] (NCW)", List.of("W", "b"),
                    "1-d convolution over a sequence (kernelSize: [k, 1])",
                    "nOut: 3, kernelSize: [3, 1], stride: [1, 1], padding: [0, 0], dilation: [1, 1],"
                    + " activation: tanh", "x: {shape: [2, 2, 8]}"),
            new LayerTypes("Deconvolution2D", "[batch, channels, height, width]", List.of("W", "b"),
                    "transposed 2-d convolution",
                    "nOut: 3, kernelSize: [3, 3], stride: [2, 2], activation: tanh", "x: {shape: [2, 2, 4, 4]}"),
            new LayerTypes("DepthwiseConvolution2D", "[batch, channels, height, width]", List.of("W", "b"),
                    "a filter per input channel (depthMultiplier of them)",
                    "depthMultiplier: 2, kernelSize: [3, 3], activation: tanh", "x: {shape: [2, 3, 5, 5]}"),
            new LayerTypes("SeparableConvolution2D", "[batch, channels, height, width]", List.of("W", "pW", "b"),
                    "depthwise, then pointwise convolution",
                    "nOut: 4, kernelSize: [3, 3], activation: tanh", "x: {shape: [2, 3, 5, 5]}"),
            new LayerTypes("SubsamplingLayer", "[batch, channels, height, width]", List.of(),
                    "max, average or p-norm pooling",
                    "poolingType: MAX, kernelSize: [2, 2], stride: [2, 2]", "x: {shape: [2, 3, 6, 6]}"),
            new LayerTypes("Upsampling2D", "[batch, channels, height, width]", List.of(), "nearest upsampling",
                    "size: [2, 2]", "x: {shape: [2, 2, 3, 3]}"),
            new LayerTypes("ZeroPaddingLayer", "[batch, channels, height, width]", List.of(), "zero padding",
                    "padding: [1, 1, 1, 1]", "x: {shape: [2, 2, 3, 3]}"),
            new LayerTypes("Cropping2D", "[batch, channels, height, width]", List.of(), "cropping",
                    "cropping: [1, 1, 1, 1]", "x: {shape: [2, 2, 5, 5]}"),
            new LayerTypes("DenseLayer", "[batch, nIn]", List.of("W", "b"), "fully connected, then the activation",
                    "nOut: 5, activation: tanh", "x: {shape: [4, 6]}"),
            new LayerTypes("OutputLayer", "[batch, nIn], and labels [batch, nOut]", List.of("W", "b"),
                    "dense layer and its loss: the score checked, its backward from the loss",
                    "nOut: 3, activation: identity, lossFunction: MSE",
                    "x: {shape: [4, 5]}\n  labels: {shape: [4, 3]}"),
            new LayerTypes("LossLayer", "[batch, n], and labels [batch, n]", List.of(), "the loss alone",
                    "activation: tanh, lossFunction: L2", "x: {shape: [4, 3]}\n  labels: {shape: [4, 3]}"),
            new LayerTypes("RnnOutputLayer", "[batch, nIn, steps], and labels [batch, nOut, steps]",
                    List.of("W", "b"), "output layer at every time step",
                    "nOut: 3, activation: tanh, lossFunction: MSE",
                    "x: {shape: [2, 4, 5]}\n  labels: {shape: [2, 3, 5]}"),
            new LayerTypes("CnnLossLayer", "NCHW, and labels of the same shape", List.of(), "a loss per pixel",
                    "activation: sigmoid, lossFunction: XENT",
                    "x: {shape: [2, 3, 4, 4]}\n  labels: {shape: [2, 3, 4, 4], init: {uniform: [0, 1]}}"),
            new LayerTypes("BatchNormalization", "[batch, nIn] or NCHW", List.of("gamma", "beta"),
                    "batch statistics (training: true) or the running ones (training: false)",
                    "", "x: {shape: [5, 4]}"),
            new LayerTypes("LocalResponseNormalization", "[batch, channels, height, width]", List.of(),
                    "normalisation across neighbouring channels",
                    "", "x: {shape: [2, 6, 3, 3]}"),
            new LayerTypes("LSTM", "[batch, nIn, steps] (NCW), mask [batch, steps] optional",
                    List.of("W", "RW", "b"), "LSTM over a sequence",
                    "nOut: 3, activation: tanh", "x: {shape: [2, 4, 5]}"),
            new LayerTypes("SimpleRnn", "[batch, nIn, steps] (NCW), mask [batch, steps] optional",
                    List.of("W", "RW", "b"),
                    "Elman RNN over a sequence",
                    "nOut: 3, activation: tanh", "x: {shape: [2, 4, 5]}"),
            new LayerTypes("GlobalPoolingLayer", "NCHW or [batch, size, steps]", List.of(),
                    "pooling over the spatial or time dimensions",
                    "poolingType: AVG", "x: {shape: [2, 3, 4, 4]}"),
            new LayerTypes("PReLULayer", "[batch, nIn] or NCHW", List.of("W"), "leaky ReLU with learned slopes",
                    "inputShape: [6]", "x: {shape: [4, 6]}"),
            new LayerTypes("EmbeddingLayer", "[batch, 1] of indices (no_grad)", List.of("W", "b"),
                    "rows of W by index", "nIn: 5, nOut: 3, activation: tanh",
                    "x: {shape: [4, 1], init: {values: [[0], [3], [3], [1]]}}\nno_grad: [x]"),
            new LayerTypes("SelfAttentionLayer", "[batch, nIn, steps] (NCW)", List.of(),
                    "dot-product self-attention (one head, no projection; docs/dl4j-findings.md)", "nOut: 4, nHeads: 1",
                    "x: {shape: [2, 4, 5]}\nexpect: {fail: [jacobian]}\nreason: its input gradient is doubled"
                    + " (docs/dl4j-findings.md)"),
            new LayerTypes("ActivationLayer", "any", List.of(), "the activation alone",
                    "activation: softmax", "x: {shape: [3, 5]}"),
            new LayerTypes("Convolution3D", "[batch, channels, depth, height, width] (NCDHW)", List.of("W", "b"),
                    "3-d convolution", "nOut: 2, kernelSize: [2, 2, 2], activation: tanh",
                    "x: {shape: [1, 2, 3, 3, 3]}"),
            new LayerTypes("Deconvolution3D", "NCDHW", List.of("W", "b"), "transposed 3-d convolution",
                    "nOut: 2, kernelSize: [2, 2, 2], stride: [2, 2, 2], activation: tanh",
                    "x: {shape: [1, 2, 2, 2, 2]}"),
            new LayerTypes("Subsampling1DLayer", "[batch, channels, steps] (NCW)", List.of(), "1-d pooling",
                    "poolingType: MAX, kernelSize: [2, 1], stride: [2, 1], padding: [0, 0]",
                    "x: {shape: [2, 3, 8]}"),
            new LayerTypes("Subsampling3DLayer", "NCDHW", List.of(), "3-d pooling",
                    "poolingType: MAX, kernelSize: [2, 2, 2], stride: [2, 2, 2]", "x: {shape: [1, 2, 4, 4, 4]}"),
            new LayerTypes("Upsampling1D", "NCW", List.of(), "nearest upsampling along the steps (size: [s, s])",
                    "size: [2, 2]", "x: {shape: [2, 3, 4]}"),
            new LayerTypes("Upsampling3D", "NCDHW", List.of(), "nearest 3-d upsampling", "size: [2, 2, 2]",
                    "x: {shape: [1, 2, 2, 2, 2]}"),
            new LayerTypes("Cropping1D", "NCW", List.of(), "cropping of the steps", "cropping: [1, 1]",
                    "x: {shape: [2, 3, 6]}"),
            new LayerTypes("ZeroPadding1DLayer", "NCW", List.of(), "zero padding of the steps", "padding: [1, 2]",
                    "x: {shape: [2, 3, 4]}"),
            new LayerTypes("SpaceToDepthLayer", "NCHW", List.of(), "blocks of pixels to channels", "blockSize: 2",
                    "x: {shape: [2, 2, 4, 4]}"),
            new LayerTypes("LocallyConnected1D", "NCW", List.of("W", "b"),
                    "1-d convolution with unshared weights (SameDiff-defined)",
                    "nOut: 2, kernel: 2, stride: 1, padding: 0, dilation: 1, activation: tanh",
                    "x: {shape: [1, 2, 3]}\nexpect: {fail: [jacobian]}\nreason: its gradients are doubled (docs/dl4j-findings.md)"),
            new LayerTypes("GravesLSTM", "NCW", List.of("W", "RW", "b"), "LSTM with peephole connections",
                    "nOut: 2, activation: tanh", "x: {shape: [1, 2, 3]}"),
            new LayerTypes("Bidirectional", "NCW", List.of("fW", "fRW", "fb", "bW", "bRW", "bb"),
                    "a recurrent layer run both ways (rnnLayer: the wrapped layer, as a mapping)",
                    "mode: CONCAT, rnnLayer: {type: LSTM, nOut: 2, activation: tanh}", "x: {shape: [1, 2, 3]}"),
            new LayerTypes("LastTimeStep", "NCW", List.of("W", "RW", "b"),
                    "the wrapped recurrent layer's last step (underlying: the wrapped layer)",
                    "underlying: {type: LSTM, nOut: 2, activation: tanh}", "x: {shape: [2, 3, 4]}"),
            new LayerTypes("EmbeddingSequenceLayer", "[batch, steps] of indices (no_grad)", List.of("W"),
                    "rows of W by index, at every step", "nIn: 6, nOut: 3, inputLength: 5",
                    "x: {shape: [2, 5], init: {values: [[0, 1, 2, 3, 4], [5, 4, 3, 2, 1]]}}\nno_grad: [x]"),
            new LayerTypes("ElementWiseMultiplicationLayer", "[batch, nIn]", List.of("W", "b"),
                    "x * w + b elementwise, then the activation", "nOut: 4, activation: tanh",
                    "x: {shape: [3, 4]}"),
            new LayerTypes("RecurrentAttentionLayer", "NCW", List.of("W", "RW"),
                    "attention over the steps with a recurrent query (SameDiff-defined)",
                    "nOut: 2, nHeads: 1, projectInput: false, activation: tanh",
                    "x: {shape: [1, 2, 3]}\nexpect: {fail: [jacobian]}\nreason: its gradients are doubled (docs/dl4j-findings.md)"),
            new LayerTypes("CapsuleLayer", "[batch, capsules, capsuleDimensions]", List.of("weight"),
                    "capsules with dynamic routing (SameDiff-defined)", "capsules: 2, capsuleDimensions: 2, routings: 1",
                    "x: {shape: [1, 2, 2]}\nexpect: {fail: [jacobian]}\nreason: its gradients are doubled (docs/dl4j-findings.md)"),
            new LayerTypes("Cnn3DLossLayer", "NCDHW, and labels of the same shape", List.of(), "a loss per voxel",
                    "activation: identity, lossFunction: MSE, dataFormat: NCDHW",
                    "x: {shape: [2, 2, 2, 2, 2]}\n  labels: {shape: [2, 2, 2, 2, 2]}"),
            vertex("MergeVertex", "its inputs, concatenated along dimension 1", "", "a: {shape: [2, 3]}\n  b: {shape:"
                    + " [2, 4]}"),
            vertex("ElementWiseVertex", "Add, Subtract, Product, Average or Max of its inputs", "op: Product",
                    TWO_2X3 + "\n  c: {shape: [2, 3]}"),
            vertex("SubsetVertex", "entries from..to (inclusive) of dimension 1", "from: 1, to: 2",
                    "a: {shape: [2, 4]}"),
            vertex("StackVertex", "its inputs stacked along the batch", "", TWO_2X3),
            vertex("UnstackVertex", "one of stackSize equal parts of the batch", "from: 1, stackSize: 2",
                    "a: {shape: [4, 3]}"),
            vertex("L2Vertex", "the L2 distance between its two inputs, per example", "", TWO_2X3),
            vertex("L2NormalizeVertex", "each example divided by its L2 norm", "", "a: {shape: [2, 3]}"),
            vertex("ScaleVertex", "its input times scaleFactor", "scaleFactor: 2.5", "a: {shape: [2, 3]}"),
            vertex("ShiftVertex", "its input plus shiftFactor", "shiftFactor: 0.5", "a: {shape: [2, 3]}"),
            vertex("ReshapeVertex", "its input reshaped (reshapeOrder c or f)", "reshapeOrder: c, newShape: [2, 3, 2]",
                    "a: {shape: [2, 6]}"),
            vertex("PreprocessorVertex", "an input preprocessor (preProcessor: {type: ..., its fields})",
                    "preProcessor: {type: CnnToFeedForwardPreProcessor, inputHeight: 2, inputWidth: 2,"
                    + " numChannels: 3}", "a: {shape: [2, 3, 2, 2]}"),
            vertex("DuplicateToTimeSeriesVertex", "its [batch, n] input copied to every step of the input inputName"
                    + " names (read by name, not checked)", "inputName: ts",
                    "a: {shape: [2, 3]}\n  ts: {shape: [2, 4, 5]}"),
            vertex("LastTimeStepVertex", "each example's last step (its last real one under a mask)",
                    "maskArrayInputName: a", "a: {shape: [2, 3, 5]}\n  mask: {shape: [2, 5], init: {values: [[1, 1,"
                    + " 1, 1, 1], [1, 1, 1, 0, 0]]}}"),
            vertex("ReverseTimeSeriesVertex", "the steps reversed (within the real ones under a mask)", "",
                    "a: {shape: [2, 3, 5]}"),
            vertex("PoolHelperVertex", "drops the first row and column (imported GoogLeNet pooling)", "",
                    "a: {shape: [2, 3, 4, 4]}"),
            vertex("AttentionVertex", "dot-product attention of queries, keys, values (SameDiff-defined; with"
                    + " projectInput: true its parameters Wq, Wk, Wv, Wo are checked too)",
                    "ninQueries: 4, ninKeys: 4, ninValues: 4, nout: 4, nheads: 1, projectInput: false",
                    "q: {shape: [2, 4, 3]}\n  k: {shape: [2, 4, 3]}\n  v: {shape: [2, 4, 3]}\nexpect: {fail:"
                    + " [jacobian]}\nreason: its gradients are doubled (docs/dl4j-findings.md)"),
            vertex("FrozenVertex", "the vertex underlying, its parameters not trained (not checked)",
                    "underlying: {type: ElementWiseVertex, op: Add}", TWO_2X3));

    /**
     * A ComputationGraph vertex that is no layer: fed every input the spec writes (in order), no parameters but a
     * SameDiff-defined vertex's (docs/dl4j.md#a-graphs-vertices).
     */
    private static LayerTypes vertex(String name, String summary, String options, String inputs) {
        return new LayerTypes(name, VERTEX_INPUT, List.of(), summary, options, inputs);
    }

    /** Whether the type is a graph vertex rather than a layer (list-ops counts them apart). */
    public boolean isVertex() {
        return input.equals(VERTEX_INPUT);
    }

    /**
     * A layer named by its configuration class's full name (DL4J's, or a user's own in a plugin jar), which the
     * front end cannot look into: a spec of its type alone, on an input of the given shape, for DL4J to judge.
     */
    public static LayerTypes byClassName(String className, List<Integer> inputShape) {
        return new LayerTypes(className, "as the layer expects it", List.of(), "named by its class", "",
                "x: {shape: " + inputShape + "}");
    }

    /** Every layer type the front end knows, in the order list-ops prints them. */
    public static List<LayerTypes> all() {
        return ALL;
    }

    public static List<String> names() {
        return ALL.stream().map(LayerTypes::name).toList();
    }

    public static Optional<LayerTypes> find(String name) {
        return ALL.stream().filter(t -> t.name.equals(name)).findFirst();
    }
}
