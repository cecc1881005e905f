package dev.gradcheck.api;

import dev.gradcheck.backend.Backend;
import dev.gradcheck.backend.nd4j.ChatterFilter;
import dev.gradcheck.backend.nd4j.InProcessBackend;
import dev.gradcheck.check.FunctionFactory;
import dev.gradcheck.op.LayerSpecs;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.Nd4jTypes;
import dev.gradcheck.op.OperatorFunction;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.op.plugin.PluginException;
import dev.gradcheck.op.plugin.PluginOperator;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Mode;
import dev.gradcheck.result.Stencil;
import dev.gradcheck.spec.CheckOptions;
import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.Expectation;
import dev.gradcheck.spec.Init;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.LayerSpec;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.MaskInputs;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SourcePos;
import dev.gradcheck.spec.Tolerance;
import dev.gradcheck.spi.Operator;
import dev.gradcheck.op.plugin.PluginSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The checker from Java code, without the CLI or a YAML spec: the same numerical-against-analytic comparison that
 * {@code gradcheck check} runs, on arrays the caller gives, through the same engine seam ({@code --in-process}'s
 * CPU engine in this JVM).
 *
 * <pre>{@code
 * CheckResult r = GradCheck.of(new Linear())
 *         .input("x", x).input("W", w).input("b", b)
 *         .check();
 * }</pre>
 *
 * Left out, the step and tolerance default per dtype as for specs (docs/checking.md), every floating input is
 * checked, and every floating output. Wrap the result in {@link GradAssertions} to fail a test on a mismatch.
 */
public final class GradCheck {

    private final String op;
    private final FunctionFactory factory;
    private String name;
    private final Map<String, INDArray> inputs = new LinkedHashMap<>();
    private final Map<String, Object> attrs = new LinkedHashMap<>();
    private List<String> wrt;
    private final List<String> noGrad = new ArrayList<>();
    private final List<String> outputs = new ArrayList<>();
    private Double delta;
    private Tolerance tolerance;
    private Mode mode = Mode.FULL;
    private int order = 1;
    private CheckOptions options = CheckOptions.DEFAULT;
    private long seed = 7;
    /** The DL4J layer checked instead of an op ({@link #ofLayer}), or null. */
    private String layerType;
    /** Where the layer's type is found: gradcheck's own class loader, or the one {@link #ofLayer} was given. */
    private ClassLoader layerClasses;
    private boolean training = true;
    /** The saved or in-memory network checked instead of an op ({@link #ofNetwork}), or null. */
    private NetworkSource network;

    private GradCheck(String op, FunctionFactory factory) {
        this.op = op;
        this.name = op;
        this.factory = factory;
    }

    /**
     * Checks a custom operator's backward.
     *
     * @throws IllegalArgumentException when the operator's name(), inputNames(), outputNames(), attributeNames(),
     *                                  complex() or hasJvp() throws or returns null, an empty name or a name twice
     */
    public static GradCheck of(Operator operator) {
        PluginOperator plugin;
        try {
            plugin = PluginOperator.read(operator, operator.getClass().getName());
        } catch (PluginException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return new GradCheck(plugin.name(), (spec, in) -> OperatorFunction.bind(plugin, spec));
    }

    /**
     * Checks an ND4J op by its registry name, as a spec's {@code op:} names it; inputs go to the op in the order
     * they are added.
     */
    public static GradCheck ofNd4j(String opName) {
        return new GradCheck(opName, (spec, in) -> new Nd4jOpBuilder(OpCatalog.nd4j()).build(spec, in));
    }

    /**
     * Checks a Deeplearning4j layer's backward, for its input and every trainable parameter, as a spec's
     * {@code layer:} does (docs/dl4j.md): {@code type} as {@code layer: {type: ...}} names it, its options through
     * {@link #attr} (as DL4J's builders and JSON name them: {@code nOut}, {@code kernelSize}, {@code activation}),
     * its one input through {@link #input}; its parameters are DL4J's, initialised under {@link #seed}, and
     * {@link #wrt} and {@link #noGrad} may name them. A ComputationGraph vertex that is no layer
     * ({@code ElementWiseVertex}, {@code MergeVertex}, ...) is named the same way and fed every input, in order.
     */
    public static GradCheck ofLayer(String type) {
        return ofLayer(type, GradCheck.class.getClassLoader());
    }

    /**
     * Checks a user's own DL4J layer, its configuration class given (a subclass of DL4J's layer configuration,
     * whose {@code instantiate} makes the layer with the hand-written backward), as {@link #ofLayer(String)} does
     * DL4J's: its options through {@link #attr}, as DL4J's JSON names the class's fields.
     */
    public static GradCheck ofLayer(Class<?> configuration) {
        return ofLayer(configuration.getName(), configuration.getClassLoader());
    }

    /**
     * As {@link #ofLayer(String)}, the type (a full class name, or a DL4J layer's simple name) found in
     * {@code classes}: the class loader of a jar that holds a user's layer and is not on the class path.
     */
    public static GradCheck ofLayer(String type, ClassLoader classes) {
        GradCheck check = new GradCheck(type, (spec, in) -> LayerSpecs.build(spec, in, classes));
        check.layerType = type;
        check.layerClasses = classes;
        return check;
    }

    /**
     * Checks a saved network as a spec's {@code network:} does (docs/dl4j.md#a-saved-network): a DL4J
     * MultiLayerNetwork or ComputationGraph ({@code .zip} from ModelSerializer, or a configuration's {@code .json})
     * layer by layer at the activations one forward pass gives each layer, a wrong layer named by its index, name
     * and type; any other file as a saved SameDiff model, node by node. Its inputs go through {@link #input} by the
     * names a spec gives them: the network's input (a graph's by its input names), {@code labels}, and the masks
     * {@code mask}, {@code in_mask}, {@code labels_mask}; {@link #fast} adds the whole network's gradient.
     */
    public static GradCheck ofNetwork(Path file) {
        return ofNetwork(NetworkSource.of(file));
    }

    /** As {@link #ofNetwork(Path)}, a network in memory: the check runs on a copy, the network is left as it is. */
    public static GradCheck ofNetwork(MultiLayerNetwork net) {
        return ofNetwork(NetworkSource.of(net));
    }

    /** As {@link #ofNetwork(Path)}, a ComputationGraph in memory, left as it is. */
    public static GradCheck ofNetwork(ComputationGraph graph) {
        return ofNetwork(NetworkSource.of(graph));
    }

    /**
     * As {@link #ofNetwork(Path)}, a SameDiff model in memory (its placeholders fed by {@link #input}), left as it
     * is; {@link #wrt} and {@link #noGrad} choose the variables of its whole gradient (fast mode).
     */
    public static GradCheck ofNetwork(SameDiff model) {
        return ofNetwork(NetworkSource.of(model));
    }

    private static GradCheck ofNetwork(NetworkSource source) {
        GradCheck check = new GradCheck("network", null);
        check.network = source;
        check.name = source.name();
        return check;
    }

    /** A layer's mode: training (the default) or inference, where they differ (BatchNormalization). */
    public GradCheck training(boolean training) {
        this.training = training;
        return this;
    }

    /** The name the result carries (default: the op's name). */
    public GradCheck name(String name) {
        this.name = name;
        return this;
    }

    /** An input's values (copied now); its dtype is the dtype under test. */
    public GradCheck input(String name, INDArray values) {
        inputs.put(name, values.dup());
        return this;
    }

    /** An attribute: a number, boolean, string, or a List of those, as a spec's {@code attrs} would give it. */
    public GradCheck attr(String name, Object value) {
        attrs.put(name, attributeValue(value));
        return this;
    }

    /** Only these inputs are checked (a spec's {@code check}); default: every floating input not in noGrad. */
    public GradCheck wrt(String... inputNames) {
        this.wrt = List.of(inputNames);
        return this;
    }

    /** Inputs never checked (a spec's {@code no_grad}). */
    public GradCheck noGrad(String... inputNames) {
        noGrad.addAll(List.of(inputNames));
        return this;
    }

    /** Only these outputs are checked, by name (a spec's {@code output}); default: every floating output. */
    public GradCheck output(String... outputNames) {
        outputs.addAll(List.of(outputNames));
        return this;
    }

    /** The finite-difference step: finite and > 0. */
    public GradCheck delta(double delta) {
        this.delta = require(delta, "delta", false);
        return this;
    }

    /** Paddle's rule: |a − n| / d ≤ r, with d = |n|, or 1 where |n| < 1e-3. */
    public GradCheck maxRelativeError(double r) {
        this.tolerance = new Tolerance.MaxRelative(require(r, "maxRelativeError", false));
        return this;
    }

    /** The allclose rule: |a − n| ≤ atol + rtol·|n|; atol and rtol finite and >= 0, not both 0. */
    public GradCheck allClose(double atol, double rtol) {
        require(atol, "atol", true);
        require(rtol, "rtol", true);
        if (atol == 0 && rtol == 0) {
            throw new IllegalArgumentException("atol = 0 and rtol = 0 allow no error at all; give a positive one");
        }
        this.tolerance = new Tolerance.AllClose(atol, rtol);
        return this;
    }

    /** The checking mode (default {@link Mode#FULL}; docs/checking.md says when to use which). */
    public GradCheck mode(Mode mode) {
        this.mode = java.util.Objects.requireNonNull(mode, "mode");
        return this;
    }

    /** Fast mode, {@code mode(Mode.FAST)}: one projection vᵀJu per block, a failing input rechecked in full. */
    public GradCheck fast() {
        return mode(Mode.FAST);
    }

    /**
     * Order 2 also checks the backward's own gradient. Only ND4J ops ({@link #ofNd4j}) have a differentiable
     * backward: an {@link Operator} has no second-order backward, so its order-2 check ends as ERROR.
     */
    public GradCheck order(int order) {
        if (!CheckOptions.validOrder(order)) {
            throw new IllegalArgumentException("order must be 1 or 2, got " + order);
        }
        this.order = order;
        return this;
    }

    /** The finite-difference formula. */
    public GradCheck stencil(Stencil stencil) {
        options = options.withStencil(stencil);
        return this;
    }

    /** Check a seeded sample of at most n elements per input (n >= 1). */
    public GradCheck maxElements(int n) {
        if (!CheckOptions.validMaxElements(n)) {
            throw new IllegalArgumentException("maxElements must be >= 1, got " + n);
        }
        options = options.withMaxElements(n);
        return this;
    }

    /**
     * Whether full mode compresses one side of each Jacobian (default true: every entry is still judged; false
     * computes both sides line by line; docs/checking.md, "Compressed Jacobians").
     */
    public GradCheck compress(boolean compress) {
        options = options.withCompress(compress);
        return this;
    }

    /** Threads evaluating the check's rows and columns (1 to 64; default: the processors, at most 8). */
    public GradCheck threads(int n) {
        if (!CheckOptions.validThreads(n)) {
            throw new IllegalArgumentException("threads must be between 1 and " + CheckOptions.MAX_THREADS
                    + ", got " + n);
        }
        options = options.withThreads(n);
        return this;
    }

    /** The largest difference allowed between two runs of the backward (default 0; finite and >= 0). */
    public GradCheck nondetTol(double tol) {
        if (!CheckOptions.validNondetTol(tol)) {
            throw new IllegalArgumentException("nondetTol must be finite and >= 0, got " + tol);
        }
        options = options.withNondetTol(tol);
        return this;
    }

    /** The seed of every random draw (directions, cotangents, samples); default 7. */
    public GradCheck seed(long seed) {
        this.seed = seed;
        return this;
    }

    /**
     * Runs the check. A failing gradient or an operator that throws ends as a result (status FAILED or ERROR,
     * with the message), never as an exception.
     *
     * @throws IllegalArgumentException for a check that cannot be set up as given (no inputs, an unknown or
     *                                  non-floating input in wrt, a layer's or DL4J network's mask holding values
     *                                  other than 0 and 1 or not shaped [batch, steps])
     */
    public CheckResult check() {
        if (network != null) {
            List<InputSpec> specs = networkInputs();
            return network.withFile(file -> ChatterFilter.whileRunning(() -> {
                try (Backend cpu = InProcessBackend.withPlugins(Engine.CPU, PluginSet.EMPTY,
                        MemoryBudget.forThisJvm())) {
                    return cpu.run(networkSpec(file, specs));
                }
            }));
        }
        // a layer's parameters become inputs where its class is found (a user's layer may be in its own loader)
        OpSpec spec = layerType == null ? spec() : LayerSpecs.withParams(spec(), layerClasses);
        // SameDiff prints a line on System.out for every gradient it builds: a test's stdout is the test's own
        return ChatterFilter.whileRunning(() -> {
            try (Backend cpu = new InProcessBackend(Engine.CPU, factory, MemoryBudget.forThisJvm())) {
                return cpu.run(spec);
            }
        });
    }

    private OpSpec spec() {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("no inputs: add them with input(name, array)");
        }
        SourcePos pos = position();
        List<InputSpec> specs = inputSpecs(pos);
        if (layerType != null) {
            requireMasks(specs, false);
            return layerSpec(pos, specs);
        }
        for (String n : noGrad) {
            requireInput(n, "noGrad");
        }
        List<String> check = wrt != null ? wrt : specs.stream()
                .filter(i -> i.dtype().isFloating() && !noGrad.contains(i.name())).map(InputSpec::name).toList();
        for (String n : check) {
            requireInput(n, "wrt");
            DType dtype = Nd4jTypes.specType(inputs.get(n).dataType());
            if (!dtype.isFloating() || noGrad.contains(n)) {
                throw new IllegalArgumentException("input '" + n + "' cannot be checked: it is "
                        + (noGrad.contains(n) ? "in noGrad" : dtype + ", not floating"));
            }
        }
        if (check.isEmpty()) {
            throw new IllegalArgumentException("nothing to check: no floating input");
        }
        Map<String, Located<Object>> located = new LinkedHashMap<>();
        attrs.forEach((k, v) -> located.put(k, new Located<>(v, pos)));
        return new OpSpec(name, pos, new Located<>(op, pos), located, specs,
                outputs.stream().map(o -> new Located<>(o, pos)).toList(), List.copyOf(check), List.copyOf(noGrad),
                delta, tolerance, mode, order, options, List.of(Engine.CPU), seed, Expectation.PASS, null, null, null, null);
    }

    /**
     * A layer spec: names in wrt and noGrad that are no input are the layer's parameters, resolved where DL4J says
     * which it has (a name that is neither ends the check INVALID, saying which parameters there are).
     */
    private OpSpec layerSpec(SourcePos pos, List<InputSpec> specs) {
        Map<String, Located<Object>> layerOptions = new LinkedHashMap<>();
        attrs.forEach((k, v) -> layerOptions.put(k, new Located<>(v, pos)));
        LayerSpec layer = new LayerSpec(new Located<>(layerType, pos), layerOptions, training, otherNames(pos),
                List.of());
        return new OpSpec(name, pos, new Located<>(layerType, pos), Map.of(), specs, List.of(), checkedInputs(),
                noGrad.stream().filter(inputs::containsKey).toList(), delta, tolerance, mode, order, options,
                List.of(Engine.CPU), seed, Expectation.PASS, null, null, layer, null);
    }

    /**
     * A network spec of the network's file, as a spec's {@code network:} reads: names in wrt and noGrad that are
     * no input are a SameDiff model's variables (a DL4J network refuses them, as its spec does).
     */
    private OpSpec networkSpec(Path file, List<InputSpec> specs) {
        SourcePos pos = position();
        Located<String> op = new Located<>("network", pos);
        LayerSpec layer = new LayerSpec(op, Map.of(), training, otherNames(pos), List.of());
        return new OpSpec(name, pos, op, Map.of(), specs, List.of(), checkedInputs(),
                noGrad.stream().filter(inputs::containsKey).toList(), delta, tolerance, mode, order, options,
                List.of(Engine.CPU), seed, Expectation.PASS, null, null, layer,
                new Located<>(file.toString(), pos));
    }

    /**
     * A network's inputs as a spec's, its masks held to a spec's rules where DL4J sets them (a SameDiff model's
     * placeholders are its own, whatever their names), before the network is written anywhere.
     */
    private List<InputSpec> networkInputs() {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("no inputs: add the network's input with input(name, array)");
        }
        List<InputSpec> specs = inputSpecs(position());
        if (network.dl4j()) {
            requireMasks(specs, true);
        }
        return specs;
    }

    private SourcePos position() {
        return new SourcePos("GradCheck(" + name + ")", 1, 1);
    }

    private List<InputSpec> inputSpecs(SourcePos pos) {
        List<InputSpec> specs = new ArrayList<>();
        inputs.forEach((n, a) -> specs.add(new InputSpec(n, a.shape(), Nd4jTypes.specType(a.dataType()),
                new Init.Values(a.castTo(DataType.DOUBLE).dup('c').data().asDouble()), pos)));
        return specs;
    }

    /**
     * A mask of values other than 0 and 1, or of a shape other than [batch, steps], checks a function no network
     * computes: the caller's mistake, refused as a spec's is (docs/dl4j.md#masks).
     */
    private static void requireMasks(List<InputSpec> specs, boolean network) {
        List<String> errors = MaskInputs.apiErrors(specs, network);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", errors));
        }
    }

    /** The inputs wrt names (or every input) not in noGrad: a layer's or network's check among its inputs. */
    private List<String> checkedInputs() {
        return (wrt != null ? wrt : List.copyOf(inputs.keySet())).stream()
                .filter(n -> inputs.containsKey(n) && !noGrad.contains(n)).toList();
    }

    /** Names in wrt and noGrad that are no input: a layer's parameters, a model's variables. */
    private LayerSpec.Selection otherNames(SourcePos pos) {
        List<Located<String>> check = wrt == null ? null : wrt.stream().filter(n -> !inputs.containsKey(n))
                .map(n -> new Located<>(n, pos)).toList();
        List<Located<String>> none = noGrad.stream().filter(n -> !inputs.containsKey(n))
                .map(n -> new Located<>(n, pos)).toList();
        return new LayerSpec.Selection(check, none);
    }

    /**
     * The bounds the spec validator puts on the same settings: a tolerance or step that is negative, zero or
     * infinite would make every check pass (or none), so it is the caller's mistake, not a result.
     */
    private static double require(double value, String what, boolean zeroAllowed) {
        if (!Double.isFinite(value) || value < 0 || (!zeroAllowed && value == 0)) {
            throw new IllegalArgumentException(what + " must be finite and " + (zeroAllowed ? ">= 0" : "> 0")
                    + ", got " + value);
        }
        return value;
    }

    private void requireInput(String n, String where) {
        if (!inputs.containsKey(n)) {
            throw new IllegalArgumentException(where + " names '" + n + "', which is not an input ("
                    + String.join(", ", inputs.keySet()) + ")");
        }
    }

    /** Java's numeric types as a spec's YAML would read them: whole numbers as Long, others as Double. */
    private static Object attributeValue(Object value) {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float f) {
            return f.doubleValue();
        }
        if (value instanceof int[] ints) {
            return Arrays.stream(ints).mapToObj(i -> (Object) (long) i).toList();
        }
        if (value instanceof long[] longs) {
            return Arrays.stream(longs).mapToObj(i -> (Object) i).toList();
        }
        if (value instanceof double[] doubles) {
            return Arrays.stream(doubles).mapToObj(d -> (Object) d).toList();
        }
        if (value instanceof List<?> list) {
            return list.stream().map(GradCheck::attributeValue).toList();
        }
        return value;
    }
}
