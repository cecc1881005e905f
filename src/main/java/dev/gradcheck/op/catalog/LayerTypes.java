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
 */
public record LayerTypes(String name, String input, List<String> params, String summary) {

    private static final List<LayerTypes> ALL = List.of(
            new LayerTypes("ConvolutionLayer", "[batch, channels, height, width] (NCHW)", List.of("W", "b"),
                    "2-d convolution, then the activation"),
            new LayerTypes("Convolution1DLayer", "[batch, channels, steps] (NCW)", List.of("W", "b"),
                    "1-d convolution over a sequence (kernelSize: [k, 1])"),
            new LayerTypes("Deconvolution2D", "[batch, channels, height, width]", List.of("W", "b"),
                    "transposed 2-d convolution"),
            new LayerTypes("DepthwiseConvolution2D", "[batch, channels, height, width]", List.of("W", "b"),
                    "a filter per input channel (depthMultiplier of them)"),
            new LayerTypes("SeparableConvolution2D", "[batch, channels, height, width]", List.of("W", "pW", "b"),
                    "depthwise, then pointwise convolution"),
            new LayerTypes("SubsamplingLayer", "[batch, channels, height, width]", List.of(),
                    "max, average or p-norm pooling"),
            new LayerTypes("Upsampling2D", "[batch, channels, height, width]", List.of(), "nearest upsampling"),
            new LayerTypes("ZeroPaddingLayer", "[batch, channels, height, width]", List.of(), "zero padding"),
            new LayerTypes("Cropping2D", "[batch, channels, height, width]", List.of(), "cropping"),
            new LayerTypes("DenseLayer", "[batch, nIn]", List.of("W", "b"), "fully connected, then the activation"),
            new LayerTypes("OutputLayer", "[batch, nIn], and labels [batch, nOut]", List.of("W", "b"),
                    "dense layer and its loss: the score checked, its backward from the loss"),
            new LayerTypes("LossLayer", "[batch, n], and labels [batch, n]", List.of(), "the loss alone"),
            new LayerTypes("RnnOutputLayer", "[batch, nIn, steps], and labels [batch, nOut, steps]",
                    List.of("W", "b"), "output layer at every time step"),
            new LayerTypes("CnnLossLayer", "NCHW, and labels of the same shape", List.of(), "a loss per pixel"),
            new LayerTypes("BatchNormalization", "[batch, nIn] or NCHW", List.of("gamma", "beta"),
                    "batch statistics (training: true) or the running ones (training: false)"),
            new LayerTypes("LocalResponseNormalization", "[batch, channels, height, width]", List.of(),
                    "normalisation across neighbouring channels"),
            new LayerTypes("LSTM", "[batch, nIn, steps] (NCW)", List.of("W", "RW", "b"), "LSTM over a sequence"),
            new LayerTypes("SimpleRnn", "[batch, nIn, steps] (NCW)", List.of("W", "RW", "b"),
                    "Elman RNN over a sequence"),
            new LayerTypes("GlobalPoolingLayer", "NCHW or [batch, size, steps]", List.of(),
                    "pooling over the spatial or time dimensions"),
            new LayerTypes("PReLULayer", "[batch, nIn] or NCHW", List.of("W"), "leaky ReLU with learned slopes"),
            new LayerTypes("ActivationLayer", "any", List.of(), "the activation alone"));

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
