package dev.gradcheck.op;

import dev.gradcheck.op.catalog.AttrValues;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.autodiff.loss.LossReduce;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.layers.convolution.Conv1D;
import org.nd4j.linalg.api.ops.impl.layers.convolution.Conv2D;
import org.nd4j.linalg.api.ops.impl.layers.convolution.Conv3D;
import org.nd4j.linalg.api.ops.impl.layers.convolution.DeConv3D;
import org.nd4j.linalg.api.ops.impl.layers.convolution.Im2col;
import org.nd4j.linalg.api.ops.impl.layers.convolution.LocalResponseNormalization;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.Conv1DConfig;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.Conv2DConfig;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.Conv3DConfig;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.DeConv3DConfig;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.LocalResponseNormalizationConfig;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.PaddingMode;
import org.nd4j.linalg.api.ops.impl.transforms.custom.CumProd;
import org.nd4j.linalg.api.ops.impl.layers.recurrent.LSTMLayer;
import org.nd4j.linalg.api.ops.impl.layers.recurrent.config.LSTMActivations;
import org.nd4j.linalg.api.ops.impl.layers.recurrent.config.LSTMDataFormat;
import org.nd4j.linalg.api.ops.impl.layers.recurrent.config.LSTMDirectionMode;
import org.nd4j.linalg.api.ops.impl.layers.recurrent.config.LSTMLayerConfig;
import org.nd4j.linalg.api.ops.impl.layers.recurrent.weights.LSTMLayerWeights;
import org.nd4j.linalg.api.ops.impl.loss.LogPoissonLoss;
import org.nd4j.linalg.api.ops.impl.shape.Unstack;
import org.nd4j.linalg.api.ops.impl.transforms.custom.BatchToSpace;
import org.nd4j.linalg.api.ops.impl.transforms.custom.CumSum;
import org.nd4j.linalg.api.ops.impl.transforms.custom.DynamicStitch;
import org.nd4j.linalg.api.ops.impl.transforms.custom.SpaceToBatch;
import org.nd4j.linalg.api.ops.impl.transforms.segment.UnsortedSegmentSqrtN;

/**
 * Ops that the generic path (blank instance, positional arguments, {@code configureFromArguments}) cannot build
 * faithfully: their Java backward reads a config object or fields that {@code configureFromArguments} leaves null
 * or sets wrongly (docs/nd4j-findings.md). Each is built here through the constructor ND4J's own API uses
 * ({@code sd.cnn().conv1d(...)}, {@code sd.cumsum(...)}), from the same named attributes the op's descriptor
 * lists, so a spec reads the same either way.
 */
final class ConfiguredOps {

    /** Builds one op in {@code sd} over the spec's inputs: their graph variables and arrays, in the spec's order. */
    @FunctionalInterface
    interface Construction {
        DifferentialFunction build(SameDiff sd, List<SDVariable> args, List<INDArray> arrays, Map<String, Object> attrs);
    }

    private static final Map<String, Construction> TABLE = Map.ofEntries(
            Map.entry("lstmLayer", ConfiguredOps::lstmLayer),
            Map.entry("conv1d", ConfiguredOps::conv1d),
            Map.entry("conv2d", ConfiguredOps::conv2d),
            Map.entry("conv3dnew", ConfiguredOps::conv3d),
            Map.entry("deconv3d", ConfiguredOps::deconv3d),
            Map.entry("lrn", ConfiguredOps::lrn),
            Map.entry("cumsum", (sd, args, arrays, attrs) -> new CumSum(sd, args.get(0), flag(attrs, "exclusive"),
                    flag(attrs, "reverse"), axes(arrays))),
            Map.entry("cumprod", (sd, args, arrays, attrs) -> new CumProd(sd, args.get(0), flag(attrs, "exclusive"),
                    flag(attrs, "reverse"), axes(arrays))),
            // doDiff reads a numSegments field that only this constructor sets
            Map.entry("unsorted_segment_sqrt_n", (sd, args, arrays, attrs) -> new UnsortedSegmentSqrtN(sd,
                    args.get(0), args.get(1), (int) integer(attrs, "numSegments", 0))),
            // the kernel reads 'full' as int argument 1, not as the bool its descriptor lists
            Map.entry("log_poisson_loss", (sd, args, arrays, attrs) -> new LogPoissonLoss(sd,
                    LossReduce.values()[(int) integer(attrs, "lossReduce", 3)], args.get(0), args.get(1), args.get(2),
                    flag(attrs, "full"))),
            // the number of outputs comes from 'num', which the generic path cannot give the op
            Map.entry("unstack", (sd, args, arrays, attrs) -> new Unstack(sd, args.get(0),
                    (int) integer(attrs, "dimensions", 0), (int) integer(attrs, "num", 0))),
            // doDiff reads the block and crop/padding fields only these constructors set; the amounts are the
            // op's second (integer) input, [[top, bottom], [left, right]]
            Map.entry("batch_to_space", (sd, args, arrays, attrs) -> new BatchToSpace(sd, args.get(0),
                    blocks(attrs), pairs(arrays.get(1)), false)),
            Map.entry("space_to_batch", (sd, args, arrays, attrs) -> new SpaceToBatch(sd,
                    new SDVariable[] {args.get(0)}, blocks(attrs), pairs(arrays.get(1)), false)),
            Map.entry("im2col", ConfiguredOps::im2col),
            // doDiff reads an indices field that only this constructor sets (the generic build throws on it)
            Map.entry("dynamic_stitch", ConfiguredOps::dynamicStitch));

    private ConfiguredOps() {}

    static Optional<Construction> find(String op) {
        return Optional.ofNullable(TABLE.get(op));
    }

    /** As {@code sd.cnn().conv1d(x, w, b, config)}; isNCW 0 means NCW (ND4J's convention, as conv2d's isNCHW). */
    private static DifferentialFunction conv1d(SameDiff sd, List<SDVariable> args, List<INDArray> arrays,
                                               Map<String, Object> attrs) {
        Conv1DConfig config = Conv1DConfig.builder()
                .k(integer(attrs, "kW", 1)).s(integer(attrs, "sW", 1)).p(integer(attrs, "pW", 0))
                .d(integer(attrs, "dW", 1))
                .paddingMode(PaddingMode.fromNumber((int) integer(attrs, "paddingMode", 0)))
                .dataFormat(integer(attrs, "isNCW", 0) == 0 ? "NCW" : "NWC")
                .build();
        return new Conv1D(sd, args.toArray(new SDVariable[0]), config);
    }

    /** As {@code sd.cnn().conv2d(x, w, b, config)}; isNCHW 0 means NCHW; weights [kH, kW, iC, oC]. */
    private static DifferentialFunction conv2d(SameDiff sd, List<SDVariable> args, List<INDArray> arrays,
                                               Map<String, Object> attrs) {
        Conv2DConfig config = window2d(attrs, CONV2D_WINDOW)
                .dataFormat(integer(attrs, "isNCHW", 0) == 0 ? "NCHW" : "NHWC")
                .build();
        return new Conv2D(sd, args.toArray(new SDVariable[0]), config);
    }

    /** As {@code sd.cnn().conv3d(x, w, b, config)}; isNCDHW 0 means NCDHW; weights [kD, kH, kW, iC, oC]. */
    private static DifferentialFunction conv3d(SameDiff sd, List<SDVariable> args, List<INDArray> arrays,
                                               Map<String, Object> attrs) {
        Conv3DConfig config = Conv3DConfig.builder()
                .kD(integer(attrs, "kD", 1)).kH(integer(attrs, "kH", 1)).kW(integer(attrs, "kW", 1))
                .sD(integer(attrs, "sD", 1)).sH(integer(attrs, "sH", 1)).sW(integer(attrs, "sW", 1))
                .pD(integer(attrs, "pD", 0)).pH(integer(attrs, "pH", 0)).pW(integer(attrs, "pW", 0))
                .dD(integer(attrs, "dD", 1)).dH(integer(attrs, "dH", 1)).dW(integer(attrs, "dW", 1))
                .paddingMode(PaddingMode.fromNumber((int) integer(attrs, "paddingMode", 0)))
                .dataFormat(integer(attrs, "isNCDHW", 0) == 0 ? "NCDHW" : "NDHWC")
                .biasUsed(args.size() > 2)
                .build();
        return new Conv3D(sd, args.toArray(new SDVariable[0]), config);
    }

    /** As {@code sd.cnn().deconv3d(x, w, b, config)}; weights [kD, kH, kW, oC, iC]. */
    private static DifferentialFunction deconv3d(SameDiff sd, List<SDVariable> args, List<INDArray> arrays,
                                                 Map<String, Object> attrs) {
        DeConv3DConfig config = DeConv3DConfig.builder()
                .kD(integer(attrs, "kD", 1)).kH(integer(attrs, "kH", 1)).kW(integer(attrs, "kW", 1))
                .sD(integer(attrs, "sD", 1)).sH(integer(attrs, "sH", 1)).sW(integer(attrs, "sW", 1))
                .pD(integer(attrs, "pD", 0)).pH(integer(attrs, "pH", 0)).pW(integer(attrs, "pW", 0))
                .dD(integer(attrs, "dD", 1)).dH(integer(attrs, "dH", 1)).dW(integer(attrs, "dW", 1))
                .isSameMode(integer(attrs, "isSameMode", 0) == 1)
                .dataFormat(integer(attrs, "isNCDHW", 0) == 0 ? "NCDHW" : "NDHWC")
                .build();
        return args.size() > 2 ? new DeConv3D(sd, args.get(0), args.get(1), args.get(2), config)
                : new DeConv3D(sd, args.get(0), args.get(1), config);
    }

    /**
     * As {@code sd.cnn().im2Col(x, config)}: the kernel reads isSameMode as int argument 8, which the descriptor does
     * not list (gradcheck's catalog adds it); the Java side keeps the config its doDiff hands to im2col_bp. The config
     * cannot carry a padding value, so a spec that sets a non-zero zeroPadVal is rejected rather than built without it.
     */
    private static DifferentialFunction im2col(SameDiff sd, List<SDVariable> args, List<INDArray> arrays,
                                               Map<String, Object> attrs) {
        if (real(attrs, "zeroPadVal", 0.0) != 0.0) {
            throw new IllegalArgumentException("im2col: ND4J's Conv2DConfig cannot carry a non-zero zeroPadVal, so"
                    + " gradcheck cannot build it faithfully");
        }
        Conv2DConfig config = window2d(attrs, IM2COL_WINDOW).build();
        return new Im2col(sd, args.get(0), config);
    }

    /** The attribute names of a 2-D window (height before width): conv2d and im2col name them differently. */
    private record WindowNames(String kH, String kW, String sH, String sW, String pH, String pW, String dH,
                               String dW) {
    }

    private static final WindowNames CONV2D_WINDOW = new WindowNames("kH", "kW", "sH", "sW", "pH", "pW", "dH", "dW");
    private static final WindowNames IM2COL_WINDOW = new WindowNames("kernelHeight", "kernelWidth", "strideY",
            "strideX", "padHeight", "padWidth", "dY", "dX");

    /** A 2-D window from the attributes of these names (kernel, stride, padding, dilation), with isSameMode. */
    private static Conv2DConfig.Conv2DConfigBuilder window2d(Map<String, Object> attrs, WindowNames n) {
        return Conv2DConfig.builder()
                .kH(integer(attrs, n.kH(), 1)).kW(integer(attrs, n.kW(), 1))
                .sH(integer(attrs, n.sH(), 1)).sW(integer(attrs, n.sW(), 1))
                .pH(integer(attrs, n.pH(), 0)).pW(integer(attrs, n.pW(), 0))
                .dH(integer(attrs, n.dH(), 1)).dW(integer(attrs, n.dW(), 1))
                .paddingMode(integer(attrs, "isSameMode", 0) == 1 ? PaddingMode.SAME : PaddingMode.VALID);
    }

    /**
     * As {@code sd.dynamicStitch(indices, data)}: the spec gives the integer index inputs first, then as many data
     * inputs, in the kernel's order; numPartitions, if given, must be their number.
     */
    private static DifferentialFunction dynamicStitch(SameDiff sd, List<SDVariable> args, List<INDArray> arrays,
                                                      Map<String, Object> attrs) {
        int n = args.size() / 2;
        for (int k = 0; k < args.size(); k++) {
            boolean index = !arrays.get(k).dataType().isFPType();
            if (args.size() % 2 != 0 || index != (k < n)) {
                throw new IllegalArgumentException("dynamic_stitch takes its integer index inputs first, then as many"
                        + " floating data inputs (i0, i1, ..., d0, d1, ...); got " + args.size() + " inputs, input "
                        + (k + 1) + " " + (index ? "integer" : "floating"));
            }
        }
        if (attrs.get("numPartitions") != null && integer(attrs, "numPartitions", n) != n) {
            throw new IllegalArgumentException("dynamic_stitch: numPartitions is " + integer(attrs, "numPartitions", n)
                    + " but the spec gives " + n + " index inputs");
        }
        return new DynamicStitch(sd, args.subList(0, n).toArray(new SDVariable[0]),
                args.subList(n, args.size()).toArray(new SDVariable[0]));
    }

    /** As {@code sd.cnn().localResponseNormalization(x, config)}. */
    private static DifferentialFunction lrn(SameDiff sd, List<SDVariable> args, List<INDArray> arrays,
                                            Map<String, Object> attrs) {
        LocalResponseNormalizationConfig config = LocalResponseNormalizationConfig.builder()
                .depth((int) integer(attrs, "depth", 5))
                .bias(real(attrs, "bias", 1.0)).alpha(real(attrs, "alpha", 1.0)).beta(real(attrs, "beta", 0.5))
                .build();
        return new LocalResponseNormalization(sd, args.get(0), config);
    }

    /**
     * As {@code sd.rnn().lstmLayer(x, cI, hI, seqLen, weights, config)}. The inputs come in the kernel's order,
     * x, Wx, Wr, then b, seqLen, hI, cI, Wp as far as the has* flags say they are present. LSTMLayerConfig has no
     * activation alphas or betas, so a spec that sets one is rejected rather than silently built without it.
     */
    private static DifferentialFunction lstmLayer(SameDiff sd, List<SDVariable> args, List<INDArray> arrays,
                                                  Map<String, Object> attrs) {
        for (String unsupported : List.of("gateAlpha", "gateBeta", "cellAlpha", "cellBeta", "outAlpha", "outBeta")) {
            if (real(attrs, unsupported, 0.0) != 0.0) {
                throw new IllegalArgumentException("lstmLayer: ND4J's LSTMLayerConfig cannot carry a non-zero "
                        + unsupported + ", so gradcheck cannot build it faithfully");
            }
        }
        java.util.Iterator<SDVariable> in = args.iterator();
        SDVariable x = in.next();
        LSTMLayerWeights.LSTMLayerWeightsBuilder weights = LSTMLayerWeights.builder().weights(in.next())
                .rWeights(in.next());
        if (flag(attrs, "hasBiases")) {
            weights.bias(in.next());
        }
        SDVariable seqLen = flag(attrs, "hasSeqLen") ? in.next() : null;
        SDVariable hI = flag(attrs, "hasInitH") ? in.next() : null;
        SDVariable cI = flag(attrs, "hasInitC") ? in.next() : null;
        if (flag(attrs, "hasPH")) {
            weights.peepholeWeights(in.next());
        }
        LSTMLayerConfig config = LSTMLayerConfig.builder()
                .lstmdataformat(LSTMDataFormat.values()[(int) integer(attrs, "dataFormat", 0)])
                .directionMode(LSTMDirectionMode.values()[(int) integer(attrs, "directionMode", 0)])
                .gateAct(LSTMActivations.values()[(int) integer(attrs, "gateAct", 2)])
                .cellAct(LSTMActivations.values()[(int) integer(attrs, "cellAct", 0)])
                .outAct(LSTMActivations.values()[(int) integer(attrs, "outAct", 0)])
                .cellClip(real(attrs, "cellClip", 0.0))
                .retFullSequence(attrs.get("retFullSeq") == null || flag(attrs, "retFullSeq"))
                .retLastH(flag(attrs, "retLastH")).retLastC(flag(attrs, "retLastC"))
                .build();
        // LSTMLayer's (x, cLast, yLast, ...) constructor puts cLast in the kernel's hI slot and yLast in cI's
        // (docs/nd4j-findings.md): passed this way round, each spec input lands in the slot it is named after
        return new LSTMLayer(sd, x, hI, cI, seqLen, weights.build(), config);
    }

    /** A scan's axes are its second input, an integer constant; ND4J's API passes them as integer arguments. */
    private static int[] axes(List<INDArray> arrays) {
        if (arrays.size() < 2) {
            return new int[] {0};
        }
        return arrays.get(1).dup().data().asInt();
    }

    private static int[] blocks(Map<String, Object> attrs) {
        int block = (int) integer(attrs, "blockSize", 2);
        return new int[] {block, block};
    }

    private static int[][] pairs(INDArray amounts) {
        int[] flat = amounts.dup().data().asInt();
        return new int[][] {{flat[0], flat[1]}, {flat[2], flat[3]}};
    }

    private static long integer(Map<String, Object> attrs, String name, long fallback) {
        Object v = attrs.get(name);
        return v == null ? fallback : RefusedAttribute.convert(name, v, AttrValues::toLong);
    }

    private static double real(Map<String, Object> attrs, String name, double fallback) {
        Object v = attrs.get(name);
        return v == null ? fallback : RefusedAttribute.convert(name, v, AttrValues::toDouble);
    }

    private static boolean flag(Map<String, Object> attrs, String name) {
        Object v = attrs.get(name);
        return v != null && RefusedAttribute.convert(name, v, AttrValues::toBoolean);
    }
}
