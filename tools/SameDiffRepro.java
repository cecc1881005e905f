/*
 * SameDiffRepro -- reproduces, through ND4J 1.0.0-M2.1's own public SameDiff API (no gradcheck code), the ND4J
 * gradient bugs that specs/ marks `expect: fail` / `expect: error` (and a few found outside the suite), and the
 * cases where ND4J is right but gradcheck's build of the op was not (see docs/nd4j-findings.md).
 *
 * What it checks: for each case it builds a one-op SameDiff graph the way a user would (sd.math().max(x, y),
 * sd.nn().batchNorm(...), ...), prints the forward output, then the analytic vector-Jacobian product
 * c^T J for a fixed random cotangent c (SameDiff autodiff: loss = sum(out * c), sd.calculateGradients) next
 * to the same product from float64 central differences of the forward pass (step 1e-6), and their max abs
 * difference; or the exception the backward throws.
 *
 * Run (single-file source launch; the classpath is ND4J's jars, e.g. the ones gradcheck ships with):
 *     java -cp 'target/lib/*' tools/SameDiffRepro.java                # every case
 *     java -cp 'target/lib/*' tools/SameDiffRepro.java max-bcast lrn  # some cases
 */
import java.util.*;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.Conv1DConfig;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.Conv2DConfig;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.LocalResponseNormalizationConfig;
import org.nd4j.linalg.api.ops.impl.layers.convolution.config.PaddingMode;
import org.nd4j.linalg.api.ops.impl.transforms.strict.Mish;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.autodiff.loss.LossReduce;
import org.nd4j.linalg.api.ops.impl.transforms.pairwise.arithmetic.FModOp;
import org.nd4j.linalg.api.ops.impl.transforms.strict.PreciseGELU;
import org.nd4j.linalg.api.ops.impl.layers.recurrent.config.LSTMActivations;
import org.nd4j.linalg.api.ops.impl.layers.recurrent.config.LSTMDataFormat;
import org.nd4j.linalg.api.ops.impl.layers.recurrent.config.LSTMDirectionMode;
import org.nd4j.linalg.api.ops.impl.layers.recurrent.config.LSTMLayerConfig;
import org.nd4j.linalg.api.ops.impl.layers.recurrent.weights.GRUWeights;
import org.nd4j.linalg.api.ops.impl.layers.recurrent.weights.LSTMLayerWeights;
import org.nd4j.linalg.api.ops.impl.layers.recurrent.weights.SRUWeights;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.nd4j.linalg.api.ops.impl.loss.SoftmaxCrossEntropyWithLogitsLoss;

public class SameDiffRepro {

    interface Build { SDVariable f(SameDiff sd, SDVariable[] v); }

    static void check(String label, Build b, INDArray... in) {
        System.out.println("## " + label);
        try {
            SameDiff sd = SameDiff.create();
            SDVariable[] v = new SDVariable[in.length];
            List<String> names = new ArrayList<>();
            for (int i = 0; i < in.length; i++) {
                boolean fp = in[i].dataType().isFPType();
                v[i] = fp ? sd.var("in" + i, in[i].dup()) : sd.constant("in" + i, in[i].dup());
                if (fp) names.add("in" + i);
            }
            SDVariable out = b.f(sd, v);
            INDArray y = out.eval().dup();
            System.out.println("  forward " + Arrays.toString(y.shape()) + ": " + y.reshape(y.length()));
            Nd4j.getRandom().setSeed(1);
            INDArray c = Nd4j.rand(DataType.DOUBLE, y.shape());
            SDVariable loss = out.mul(sd.constant("cotangent", c)).sum();
            sd.setLossVariables(loss);
            Map<String, INDArray> g = sd.calculateGradients(Map.of(), names);
            for (String n : names) {
                INDArray an = g.get(n);
                INDArray x = sd.getVariable(n).getArr();
                INDArray num = Nd4j.zeros(DataType.DOUBLE, x.shape());
                double h = 1e-6;
                for (long k = 0; k < x.length(); k++) {
                    double x0 = x.getDouble(k);
                    x.putScalar(k, x0 + h);
                    double lp = sd.output(Map.of(), loss.name()).get(loss.name()).getDouble(0);
                    x.putScalar(k, x0 - h);
                    double lm = sd.output(Map.of(), loss.name()).get(loss.name()).getDouble(0);
                    x.putScalar(k, x0);
                    num.putScalar(k, (lp - lm) / (2 * h));
                }
                System.out.println("  d/" + n + " analytic  " + (an == null ? "none"
                        : Arrays.toString(an.shape()) + " " + an.reshape(an.length())));
                System.out.println("  d/" + n + " numerical " + Arrays.toString(num.shape()) + " " + num.reshape(num.length()));
                if (an != null && Arrays.equals(an.shape(), num.shape())) {
                    double d = an.sub(num).amaxNumber().doubleValue();
                    System.out.printf("  d/%s max abs diff %.3g -> %s%n", n, d, d < 1e-6 ? "OK" : "MISMATCH");
                } else {
                    System.out.println("  d/" + n + " -> SHAPE MISMATCH");
                }
            }
        } catch (Throwable t) {
            System.out.println("  BACKWARD ERROR " + t);
            for (Throwable cause = t.getCause(); cause != null; cause = cause.getCause()) {
                System.out.println("    caused by " + cause);
            }
        }
    }

    static INDArray m(double[][] a) { return Nd4j.createFromArray(a); }
    static INDArray v(double... a) { return Nd4j.createFromArray(a); }

    public static void main(String[] args) {
        Nd4j.setDefaultDataTypes(DataType.DOUBLE, DataType.DOUBLE);
        Map<String, Runnable> cases = new LinkedHashMap<>();
        INDArray x23 = m(new double[][]{{0.1, -0.8, 1.3}, {-1.2, 0.7, 0.4}});
        INDArray x32 = m(new double[][]{{0.5, -1.0}, {1.5, 2.0}, {-0.5, 0.25}});
        INDArray xc = m(new double[][]{{1.5, -0.5, 1.0}, {0.8, 1.2, -2.0}});
        Nd4j.getRandom().setSeed(3);
        INDArray r34 = Nd4j.rand(DataType.DOUBLE, 3, 4).subi(0.5);

        // ---- ND4J bugs kept in specs/ as expect: fail / error ----
        cases.put("logsoftmax", () -> check("sd.nn().logSoftmax(x[2,3], 1)  [specs: log-softmax-rows]",
                (sd, a) -> sd.nn().logSoftmax(a[0], 1), x23));
        cases.put("max-bcast", () -> check("sd.math().max(x[2,3], y[3])  [specs: maximum-broadcast-no-ties]",
                (sd, a) -> sd.math().max(a[0], a[1]), x23, v(0.5, -0.3, 0.9)));
        cases.put("max-ties", () -> check(
                "sd.math().max(x[4], y[4]) with x[0] = y[0] and x[2] = y[2]  [specs: maximum-ties]",
                (sd, a) -> sd.math().max(a[0], a[1]), v(1.0, 2.0, -0.5, 3.0), v(1.0, 1.5, -0.5, 3.5)));
        cases.put("min-ties", () -> check(
                "sd.math().min(x[4], y[4]) with x[0] = y[0] and x[2] = y[2]  [specs: minimum-ties]",
                (sd, a) -> sd.math().min(a[0], a[1]), v(1.0, 2.0, -0.5, 3.0), v(1.0, 1.5, -0.5, 3.5)));
        cases.put("min-bcast", () -> check("sd.math().min(x[2,3], y[2,1])  [specs: minimum-broadcast-no-ties]",
                (sd, a) -> sd.math().min(a[0], a[1]), x23, m(new double[][]{{0.5}, {-0.3}})));
        cases.put("mish", () -> check("new Mish(sd, x, false)  [specs: mish-rank2]",
                (sd, a) -> new Mish(sd, a[0], false).outputVariable(), x23));
        cases.put("lse-axis1", () -> check("sd.math().logSumExp(x[2,3], 1)  [specs: logsumexp-axis1]",
                (sd, a) -> sd.math().logSumExp(a[0], 1), m(new double[][]{{0.5, -1.0, 1.5}, {2.0, -0.5, 0.25}})));
        cases.put("cumprod0", () -> check("sd.cumprod(x[3,2], false, false, 0)  [specs: cumprod-axis0]",
                (sd, a) -> sd.cumprod(a[0], false, false, 0), x32));
        cases.put("batchnorm", () -> check("sd.nn().batchNorm(x[2,3,2], mean, var, gamma, beta, 1e-3, 1)  [specs: batchnorm-channels-axis1]",
                (sd, a) -> sd.nn().batchNorm(a[0], a[1], a[2], a[3], a[4], 1e-3, 1),
                Nd4j.createFromArray(new double[][][]{{{0.97, 0.83}, {0.33, -0.62}, {-0.39, -0.82}},
                        {{-0.49, 0.77}, {-0.14, -0.07}, {-0.26, -0.46}}}),
                v(-0.3, 0.4, 0.2), v(1.05, 1.01, 0.92), v(1.3, 1.46, 1.14), v(0.45, 0.32, -0.74)));
        cases.put("clipbynorm", () -> check("sd.math().clipByNorm(x[2,3], 1.0, 1)  [specs: clipbynorm-rows-clipping]",
                (sd, a) -> sd.math().clipByNorm(a[0], 1.0, 1), xc));
        cases.put("clipbynorm-all", () -> check("sd.math().clipByNorm(x[2,3], 1.0)  [specs: clipbynorm-whole-array]",
                (sd, a) -> sd.math().clipByNorm(a[0], 1.0), xc));
        cases.put("gather-rep", () -> check("sd.gather(x[3,2], {2,0,2}, 0)  [specs: gather-axis0-repeated-indices]",
                (sd, a) -> sd.gather(a[0], new int[]{2, 0, 2}, 0), x32));
        cases.put("gather-distinct", () -> check("sd.gather(x[4,3], {2,0,3}, 0)  [specs: gather-axis0-distinct-indices]",
                (sd, a) -> sd.gather(a[0], new int[]{2, 0, 3}, 0),
                m(new double[][]{{0.97, 0.83, 0.33}, {-0.62, -0.39, -0.82}, {-0.49, 0.77, -0.14}, {-0.07, -0.26, -0.46}})));
        cases.put("gather-axis1", () -> check("sd.gather(x[2,4], {3,0,1}, 1)  [specs: gather-axis1]",
                (sd, a) -> sd.gather(a[0], new int[]{3, 0, 1}, 1),
                m(new double[][]{{0.5, -1.0, 1.5, 2.0}, {-0.5, 0.25, 0.75, -1.25}})));
        cases.put("upsampling-nhwc", () -> check("sd.cnn().upsampling2d(x[1,2,2,2], 2, 2, nchw=false)  [specs: upsampling2d-nhwc-2x2]",
                (sd, a) -> sd.cnn().upsampling2d(a[0], 2, 2, false),
                Nd4j.createFromArray(0.97, 0.83, 0.33, -0.62, -0.39, -0.82, -0.49, 0.77).reshape(1, 2, 2, 2)));

        cases.put("lrn", () -> check("sd.cnn().localResponseNormalization(x[1,4,2,2], depth 2, bias 1, alpha 0.5, beta 0.75)  [specs: lrn-depth2]",
                (sd, a) -> sd.cnn().localResponseNormalization(a[0], LocalResponseNormalizationConfig.builder()
                        .depth(2).bias(1.0).alpha(0.5).beta(0.75).build()),
                Nd4j.createFromArray(0.08, -0.31, -0.26, -0.25, 0.97, 0.27, 0.35, -0.34, 0.36, -0.75, -0.9, 0.7,
                        -0.98, 0.96, 0.65, 0.57).reshape(1, 4, 2, 2)));
        cases.put("cumsum1", () -> check("sd.cumsum(x[3,4], false, false, 1)  [specs: cumsum-axis1]",
                (sd, a) -> sd.cumsum(a[0], false, false, 1),
                m(new double[][]{{-0.9, -0.59, 0.7, -0.14}, {0.25, -0.76, -0.63, -0.01}, {0.52, 0.08, -0.79, 0.73}})));
        cases.put("cumsum2-excl-rev", () -> check("sd.cumsum(x[2,3,4], true, true, 2)  [specs: cumsum-rank3-exclusive-reverse]",
                (sd, a) -> sd.cumsum(a[0], true, true, 2),
                Nd4j.createFromArray(-0.72, -0.12, 0.17, -0.36, -0.16, 0.77, -0.09, 0.08, 0.94, -0.45, 0.79, -0.28,
                        -0.38, 0.76, -0.87, 0.73, 0.66, 0.79, -0.88, -0.52, 0.55, -0.13, -0.99, 0.39).reshape(2, 3, 4)));
        cases.put("cumprod1-rev", () -> check("sd.cumprod(x[2,4], false, true, 1)  [specs: cumprod-axis1-reverse]",
                (sd, a) -> sd.cumprod(a[0], false, true, 1),
                m(new double[][]{{1.3, 1.47, 0.65, 0.75}, {1.34, 0.59, 0.77, 0.95}})));

        // ---- loss ops: the backward ignores the upstream gradient (output cotangent) ----
        INDArray p23 = m(new double[][]{{0.3, -0.2, 0.5}, {1.2, -0.9, 0.4}});
        INDArray l23 = m(new double[][]{{0.1, -0.4, 0.2}, {-0.4, 0.1, 1.4}});
        INDArray w23 = m(new double[][]{{0.7, 1.1, 0.9}, {1.3, 0.6, 1.0}});
        cases.put("mse-none", () -> check("sd.loss().meanSquaredError(labels, predictions[2,3], weights[2,3], NONE)  [specs: mean-sqerr-loss-none]",
                (sd, a) -> sd.loss().meanSquaredError(null, a[1], a[0], a[2], LossReduce.NONE), p23, l23, w23));
        cases.put("mse-sum", () -> check("sd.loss().meanSquaredError(labels, predictions[2,3], weights[2,3], SUM), random scalar cotangent",
                (sd, a) -> sd.loss().meanSquaredError(null, a[1], a[0], a[2], LossReduce.SUM), p23, l23, w23));
        cases.put("l2-loss", () -> check("sd.loss().l2Loss(x[2,3]), random scalar cotangent  [specs: l2-loss-rank3]",
                (sd, a) -> sd.loss().l2Loss(a[0]), p23));
        cases.put("absdiff-none", () -> check("sd.loss().absoluteDifference(labels, predictions[2,3], weights[2,3], NONE)",
                (sd, a) -> sd.loss().absoluteDifference(null, a[1], a[0], a[2], LossReduce.NONE), p23, l23, w23));
        cases.put("sparse-sce", () -> check("sd.loss().sparseSoftmaxCrossEntropy(logits[2,3], labels[2])  [specs: sparse-softmax-cross-entropy-with-logits]",
                (sd, a) -> sd.loss().sparseSoftmaxCrossEntropy(a[0], a[1]), p23, Nd4j.createFromArray(2, 0)));
        cases.put("poisson-full", () -> check("sd.loss().logPoisson(labels[2,3] > 1, log-predictions, weights, SUM)  [specs: log-poisson-loss-full]",
                (sd, a) -> sd.loss().logPoisson(null, a[1], a[0], a[2], LossReduce.SUM, true), p23,
                m(new double[][]{{1.5, 2.0, 2.5}, {3.0, 1.7, 2.2}}), w23));

        cases.put("sce-none", () -> check("sd.loss().softmaxCrossEntropy(labels[2,3], logits[2,3], weights[2,1], NONE, 0)  [specs: softmax-cross-entropy-loss-none]",
                (sd, a) -> sd.loss().softmaxCrossEntropy(null, a[1], a[0], a[2], LossReduce.NONE, 0.0), p23,
                m(new double[][]{{0, 1, 0}, {0.2, 0.3, 0.5}}), m(new double[][]{{0.7}, {1.3}})));
        cases.put("sce-none-w1", () -> check("sd.loss().softmaxCrossEntropy(labels[2,3], logits[2,3], weights[2], NONE, 0)",
                (sd, a) -> sd.loss().softmaxCrossEntropy(null, a[1], a[0], a[2], LossReduce.NONE, 0.0), p23,
                m(new double[][]{{0, 1, 0}, {0.2, 0.3, 0.5}}), v(0.7, 1.3)));

        cases.put("sce-logits", () -> check("new SoftmaxCrossEntropyWithLogitsLoss(sd, logits[2,3], labels[2,3], classesDim 1)  [specs: softmax-cross-entropy-with-logits-rows]",
                (sd, a) -> new SoftmaxCrossEntropyWithLogitsLoss(sd, a[0], a[1], 1).outputVariable(), p23,
                m(new double[][]{{0, 1, 0}, {0.2, 0.3, 0.5}})));

        // ---- recurrent layers ----
        INDArray gx = Nd4j.createFromArray(-0.25, 0.54, 0.34, 0.42, -0.13, 0.99, 1.0, 0.9).reshape(2, 2, 2);
        INDArray gh = m(new double[][]{{-0.62, 0.37}, {0.34, 0.21}});
        INDArray gwx = m(new double[][]{{0.15, 0.31, -0.52, -0.07, -0.84, 0.68}, {-0.96, -0.96, 0.87, 0.94, 0.72, 0.38}});
        INDArray gwh = m(new double[][]{{-0.69, 0.82, 0.01, 0.4, -0.95, -0.76}, {0.39, 0.9, -0.51, -0.61, -0.45, 0.13}});
        INDArray gb = v(-0.63, -0.83, 0.06, 0.25, 0.02, 0.79);
        cases.put("gru", () -> check("sd.rnn().gru(x[2,2,2], hI[2,2], Wx[2,6], Wh[2,6], b[6])  [specs: gru-2steps]",
                (sd, a) -> sd.rnn().gru(a[0], a[1], a[2], a[3], a[4]), gx, gh, gwx, gwh, gb));
        cases.put("gru-1step", () -> check("sd.rnn().gru(x[1,2,2], ...): the first time step alone",
                (sd, a) -> sd.rnn().gru(a[0], a[1], a[2], a[3], a[4]), gx.get(NDArrayIndex.interval(0, 1)).dup(), gh, gwx, gwh, gb));
        cases.put("sru", () -> check("sd.rnn().sru(x[2,3,4], c0[2,3], SRUWeights(w[3,9], b[6]))  [specs: sru-4steps]",
                (sd, a) -> sd.rnn().sru(a[0], a[1], SRUWeights.builder().weights(a[2]).bias(a[3]).build()),
                Nd4j.rand(DataType.DOUBLE, 2, 3, 4), Nd4j.rand(DataType.DOUBLE, 2, 3), Nd4j.rand(DataType.DOUBLE, 3, 9),
                Nd4j.rand(DataType.DOUBLE, 6)));
        cases.put("grucell", () -> check("sd.rnn().gruCell(x[2,3], hLast[2,2], GRUWeights(...))[3]  [specs: gru-cell]",
                (sd, a) -> sd.rnn().gruCell(a[0], a[1], GRUWeights.builder().ruWeight(a[2]).cWeight(a[3]).ruBias(a[4])
                        .cBias(a[5]).build())[3],
                Nd4j.rand(DataType.DOUBLE, 2, 3), Nd4j.rand(DataType.DOUBLE, 2, 2), Nd4j.rand(DataType.DOUBLE, 5, 4),
                Nd4j.rand(DataType.DOUBLE, 5, 2), Nd4j.rand(DataType.DOUBLE, 4), Nd4j.rand(DataType.DOUBLE, 2)));

        cases.put("lstmlayer", () -> check("sd.rnn().lstmLayer(x[2,2,2], cI, hI, null, weights(Wx, Wr, b), TNS FWD sigmoid/tanh/tanh)[0]  [specs: lstm-layer-tns-forward]",
                (sd, a) -> sd.rnn().lstmLayer(a[0], a[5], a[4], null,
                        LSTMLayerWeights.builder().weights(a[1]).rWeights(a[2]).bias(a[3]).build(),
                        LSTMLayerConfig.builder().lstmdataformat(LSTMDataFormat.TNS).directionMode(LSTMDirectionMode.FWD)
                                .gateAct(LSTMActivations.SIGMOID).cellAct(LSTMActivations.TANH).outAct(LSTMActivations.TANH)
                                .retFullSequence(true).retLastH(false).retLastC(false).cellClip(0).build())[0],
                Nd4j.createFromArray(0.22, 0.5, 0.56, -0.42, 0.39, 0.85, 0.03, 0.75).reshape(2, 2, 2),
                m(new double[][]{{0.65, -0.53, 0.65, -0.96, -0.57, -0.38, -0.76, -0.12}, {0.27, -0.13, 0.66, 0.28, 0.7, -0.36, 0.22, -0.95}}),
                m(new double[][]{{-0.78, 0.13, 0.25, -0.12, -0.62, 0.42, 0.63, 0.6}, {0.63, -0.18, -0.69, 0.81, 0.39, 0.22, -0.82, -0.67}}),
                v(0.91, -0.46, 0.5, 0.07, 0.84, -0.85, -0.12, -0.35),
                m(new double[][]{{0.84, -0.26}, {0.56, -0.07}}), m(new double[][]{{-0.34, 0.23}, {-0.68, 0.09}})));

        // ---- elementwise and pairwise ----
        INDArray fx = m(new double[][]{{2.3, -1.7, 0.4}, {3.7, -2.6, 1.1}}), fy = m(new double[][]{{0.9, 0.8, 0.7}, {1.3, 1.1, 0.6}});
        INDArray px = m(new double[][]{{2.3, 1.7, 0.4}, {3.7, 2.6, 1.1}});
        cases.put("fmod", () -> check("new FModOp(sd, x, y)  [specs: fmod-away-from-jumps]", (sd, a) -> new FModOp(sd, a[0], a[1]).outputVariable(), fx, fy));
        cases.put("floormod", () -> check("sd.math().floorMod(x, y)  [specs: floormod-away-from-jumps]", (sd, a) -> sd.math().floorMod(a[0], a[1]), fx, fy));
        cases.put("mod", () -> check("sd.math().mod(x, y)  [specs: mod-away-from-jumps]", (sd, a) -> sd.math().mod(a[0], a[1]), px, fy));
        cases.put("max-pairwise", () -> check("new Max(sd, x, y) (legacy pairwise)  [specs: max-pairwise-no-ties]",
                (sd, a) -> new org.nd4j.linalg.api.ops.impl.transforms.same.Max(sd, a[0], a[1]).outputVariable(), x23, xc));
        cases.put("amax-pairwise", () -> check("new AMax(sd, x, y)  [specs: amax-pairwise-no-ties]",
                (sd, a) -> new org.nd4j.linalg.api.ops.impl.transforms.same.AMax(sd, a[0], a[1]).outputVariable(), x23, xc));
        cases.put("atan2-bcast", () -> check("sd.math().atan2(y[2,3], x[3])  [specs: atan2-broadcast]",
                (sd, a) -> sd.math().atan2(a[0], a[1]), m(new double[][]{{0.3, -1.2, 0.8}, {1.5, 0.2, -0.6}}), v(0.7, 1.4, 0.9)));
        cases.put("cross", () -> check("sd.math().cross(a[2,3], b[2,3])  [specs: cross-rows]", (sd, a) -> sd.math().cross(a[0], a[1]),
                m(new double[][]{{0.5, -1.2, 0.8}, {1.1, 0.3, -0.7}}), m(new double[][]{{-0.4, 0.9, 1.3}, {0.6, -1.5, 0.2}})));
        cases.put("precise-gelu", () -> check("new PreciseGELU(sd, x)  [specs: precise-gelu]",
                (sd, a) -> new PreciseGELU(sd, a[0]).outputVariable(), m(new double[][]{{-2.7, -1.2, -0.3}, {0.4, 1.1, 2.5}})));

        INDArray dx = m(new double[][]{{0.3, -1.6, 2.5}, {-0.4, 1.2, 0.7}});
        cases.put("softsign-derivative", () -> check("new SoftSignDerivative(sd, x)  [specs: softsign-derivative]",
                (sd, a) -> new org.nd4j.linalg.api.ops.impl.transforms.gradient.SoftSignDerivative(sd, a[0]).outputVariable(), dx));
        cases.put("selu-derivative", () -> check("new SELUDerivative(sd, x)  [specs: selu-derivative]",
                (sd, a) -> new org.nd4j.linalg.api.ops.impl.transforms.gradient.SELUDerivative(sd, a[0]).outputVariable(), dx));
        cases.put("amin-pairwise", () -> check("new AMin(sd, x, y)  [specs: amin-pairwise-no-ties]",
                (sd, a) -> new org.nd4j.linalg.api.ops.impl.transforms.same.AMin(sd, a[0], a[1]).outputVariable(), x23, xc));

        // ---- linear algebra ----
        INDArray inv = Nd4j.createFromArray(2.0, 0.5, 0.1, 0.3, 1.5, -0.2, 0.1, 0.4, 1.8,
                1.2, -0.3, 0.2, 0.4, 2.2, 0.5, -0.1, 0.3, 1.4).reshape(2, 3, 3);
        cases.put("matrix-inverse", () -> check("sd.math().matrixInverse(x[2,3,3])  [specs: matrix-inverse-batch]",
                (sd, a) -> sd.math().matrixInverse(a[0]), inv));
        cases.put("matrix-inverse-2d", () -> check("sd.math().matrixInverse(x[3,3]): one matrix",
                (sd, a) -> sd.math().matrixInverse(a[0]), inv.get(NDArrayIndex.point(0)).dup()));
        cases.put("set-diag", () -> check("sd.math().setDiag(x[2,3,3], diag[2,3])  [specs: matrix-set-diag-batch]",
                (sd, a) -> sd.math().setDiag(a[0], a[1]), inv, m(new double[][]{{0.5, -0.4, 0.9}, {1.1, 0.2, -0.7}})));

        // ---- pad, reduce_prod, scatter_mul (issue 6 review) ----
        INDArray pd34 = m(new double[][]{{0.5, -1.2, 0.8, 0.3}, {1.1, 0.3, -0.7, 0.9}, {-0.4, 0.9, 1.3, -0.6}});
        INDArray pads = Nd4j.createFromArray(new int[][]{{1, 2}, {2, 1}});
        cases.put("pad-reflect", () -> check("sd.nn().pad(x[3,4], {{1,2},{2,1}}, REFLECT, 0)  [specs: pad-reflect]",
                (sd, a) -> sd.nn().pad(a[0], a[1], org.nd4j.enums.PadMode.REFLECT, 0.0), pd34, pads));
        cases.put("pad-symmetric", () -> check("sd.nn().pad(x[3,4], {{1,2},{2,1}}, SYMMETRIC, 0)  [specs: pad-symmetric]",
                (sd, a) -> sd.nn().pad(a[0], a[1], org.nd4j.enums.PadMode.SYMMETRIC, 0.0), pd34, pads));
        cases.put("pad-constant", () -> check("sd.nn().pad(x[3,4], {{1,2},{2,1}}, CONSTANT, 0.5)",
                (sd, a) -> sd.nn().pad(a[0], a[1], org.nd4j.enums.PadMode.CONSTANT, 0.5), pd34, pads));
        cases.put("prod-zero", () -> check("sd.prod(x[2,3], 1) with x[0,1] = 0  [specs: reduce-prod-with-zero]",
                (sd, a) -> sd.prod(a[0], 1), m(new double[][]{{0.5, 0.0, 1.5}, {0.7, -1.2, 0.9}})));
        cases.put("scatter-mul-rep", () -> check("sd.scatterMul(x[4,3], {3,1,3}, updates[3,3])  [specs: scatter-mul-repeated]",
                (sd, a) -> sd.scatterMul(a[0], a[1], a[2]),
                m(new double[][]{{0.5, -1.2, 0.8}, {1.1, 0.3, -0.7}, {0.9, 1.4, -0.6}, {-0.4, 0.9, 1.3}}),
                Nd4j.createFromArray(3, 1, 3),
                m(new double[][]{{0.6, -1.5, 0.2}, {1.2, 0.7, -0.9}, {-0.8, 0.4, 1.6}})));
        cases.put("var-uncorrected", () -> check("sd.variance(x[3,4], false, 0): biasCorrected false  [specs: var-uncorrected-axis0]",
                (sd, a) -> sd.variance(a[0], false, 0), r34));
        cases.put("var-uncorrected-r3", () -> check("sd.variance(x[2,3,4], false, true, 0, 2)  [specs: var-rank3-two-axes-keepdims]",
                (sd, a) -> sd.variance(a[0], false, true, 0, 2), Nd4j.rand(DataType.DOUBLE, 2, 3, 4)));
        cases.put("std-uncorrected", () -> check("sd.standardDeviation(x[3,4], false, 0)",
                (sd, a) -> sd.standardDeviation(a[0], false, 0), r34));

        // ---- ND4J is right here: gradcheck's build of these ops was wrong (tool bugs) ----
        cases.put("relu", () -> check("sd.nn().relu(x, 0.5)", (sd, a) -> sd.nn().relu(a[0], 0.5), x23));
        cases.put("relu6", () -> check("sd.nn().relu6(x, 0)", (sd, a) -> sd.nn().relu6(a[0], 0), x23));
        cases.put("leakyrelu", () -> check("sd.nn().leakyRelu(x, 0.2)", (sd, a) -> sd.nn().leakyRelu(a[0], 0.2), x23));
        cases.put("pow", () -> check("sd.math().pow(x, 3)", (sd, a) -> sd.math().pow(a[0], 3), x23));
        cases.put("std", () -> check("sd.standardDeviation(x, false, 1)", (sd, a) -> sd.standardDeviation(a[0], false, 1), x23));
        cases.put("var", () -> check("sd.variance(x, true, 1)", (sd, a) -> sd.variance(a[0], true, 1), x23));
        cases.put("layernorm-nhwc", () -> check("sd.nn().layerNorm(x[2,2,4], gain[4], bias[4], channelsFirst=false, 2)",
                (sd, a) -> sd.nn().layerNorm(a[0], a[1], a[2], false, 2),
                Nd4j.createFromArray(0.97, 0.83, 0.33, -0.62, -0.39, -0.82, -0.49, 0.77, -0.14, -0.07, -0.26, -0.46,
                        1.2, -1.5, 0.4, 0.05).reshape(2, 2, 4), v(1.1, 0.9, 1.3, 0.7), v(0.1, -0.2, 0.3, 0.0)));
        cases.put("conv2d-nhwc", () -> check("sd.cnn().conv2d NHWC x[1,4,4,2] w[2,2,2,2], k2 s1 dilation 2 SAME",
                (sd, a) -> sd.cnn().conv2d(a[0], a[1], a[2], Conv2DConfig.builder().kH(2).kW(2).sH(1).sW(1).pH(0).pW(0)
                        .dH(2).dW(2).paddingMode(PaddingMode.SAME).dataFormat("NHWC").build()),
                Nd4j.linspace(DataType.DOUBLE, -1, 0.0625, 32).reshape(1, 4, 4, 2),
                Nd4j.linspace(DataType.DOUBLE, 0.5, -0.1, 16).reshape(2, 2, 2, 2), v(0.1, -0.2)));
        cases.put("conv1d", () -> check("sd.cnn().conv1d NCW x[2,2,7] w[3,2,3], k3 s2 p1",
                (sd, a) -> sd.cnn().conv1d(a[0], a[1], a[2], Conv1DConfig.builder().k(3).s(2).p(1).d(1)
                        .paddingMode(PaddingMode.VALID).dataFormat("NCW").build()),
                Nd4j.linspace(DataType.DOUBLE, -1, 0.07, 28).reshape(2, 2, 7),
                Nd4j.linspace(DataType.DOUBLE, 0.5, -0.05, 18).reshape(3, 2, 3), v(0.1, -0.2, 0.3)));
        // the three ops issue 13 asked to make buildable: im2col and dynamic_stitch through SameDiff's own API
        // are right (gradcheck builds them the same way); scatter_update fails in SameDiff's API as in a spec
        cases.put("im2col", () -> check("sd.cnn().im2Col x[1,2,4,4], k2 s1 p0 d1 VALID  [specs: im2col-2x2]",
                (sd, a) -> sd.cnn().im2Col(a[0], Conv2DConfig.builder().kH(2).kW(2).sH(1).sW(1).pH(0).pW(0).dH(1)
                        .dW(1).paddingMode(PaddingMode.VALID).build()),
                Nd4j.linspace(DataType.DOUBLE, -1, 0.0625, 32).reshape(1, 2, 4, 4)));
        cases.put("dynamic-stitch", () -> check("sd.dynamicStitch({i0 = [0, 2], i1 = [1, 3]}, {d0[2,3], d1[2,3]})"
                        + "  [specs: dynamic-stitch-interleaved]",
                (sd, a) -> sd.dynamicStitch(new SDVariable[] {a[0], a[1]}, new SDVariable[] {a[2], a[3]}),
                Nd4j.createFromArray(0, 2), Nd4j.createFromArray(1, 3),
                m(new double[][]{{0.1, -0.2, 0.3}, {0.4, 0.5, -0.6}}), m(new double[][]{{-0.7, 0.8, 0.9}, {1.0, -1.1, 1.2}})));
        cases.put("dynamic-stitch-unsorted", () -> check("sd.dynamicStitch({i0 = [4, 0, 2], i1 = [1, 3]}, {d0[3], d1[2]})"
                        + "  [specs: dynamic-stitch-unsorted-indices]",
                (sd, a) -> sd.dynamicStitch(new SDVariable[] {a[0], a[1]}, new SDVariable[] {a[2], a[3]}),
                Nd4j.createFromArray(4, 0, 2), Nd4j.createFromArray(1, 3), v(0.1, -0.2, 0.3), v(0.4, 0.5)));
        cases.put("scatter-update", () -> check("sd.scatterUpdate(x[4,3], {0, 2}, updates[2,3])"
                        + "  [specs: scatter-update-rows]",
                (sd, a) -> sd.scatterUpdate(a[0], a[1], a[2]),
                Nd4j.linspace(DataType.DOUBLE, -1, 0.125, 12).reshape(4, 3), Nd4j.createFromArray(0, 2),
                m(new double[][]{{0.5, -0.5, 0.25}, {1.5, -1.5, 0.75}})));

        Set<String> only = new HashSet<>(Arrays.asList(args));
        for (Map.Entry<String, Runnable> e : cases.entrySet()) {
            if (only.isEmpty() || only.contains(e.getKey())) {
                e.getValue().run();
            }
        }
    }
}
