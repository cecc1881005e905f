package dev.gradcheck.op;

import dev.gradcheck.op.catalog.AffineInputs;
import dev.gradcheck.op.catalog.ArgInfo;
import dev.gradcheck.op.catalog.AttrValues;
import dev.gradcheck.op.catalog.AttributeBinder;
import dev.gradcheck.op.catalog.CatalogOps;
import dev.gradcheck.op.catalog.OpBinding;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.op.catalog.OpInfo;
import dev.gradcheck.spec.Expectation;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SourcePos;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.imports.converters.DifferentialFunctionClassHolder;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.BaseReduceOp;
import org.nd4j.linalg.api.ops.BaseScalarOp;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.api.ops.DynamicCustomOp;
import org.nd4j.linalg.api.ops.OpContext;

/**
 * Builds a registry op as a one-op SameDiff graph, the way ND4J's own importers do: an instance of the op's
 * class, its inputs registered as arguments, positional arguments from the spec's named attributes, then the
 * op's own {@code configureFromArguments} so that its Java-side backward ({@code doDiff}) sees the same
 * configuration as the native kernel.
 */
public final class Nd4jOpBuilder {

    private final OpCatalog catalog;
    /** What a build may allocate: an op's outputs are weighed against it before the op first runs. */
    private final MemoryBudget budget;
    private final CatalogOps catalogOps;

    /** A builder that weighs nothing (tests, and builds whose size was weighed elsewhere). */
    public Nd4jOpBuilder(OpCatalog catalog) {
        this(catalog, MemoryBudget.UNLIMITED);
    }

    public Nd4jOpBuilder(OpCatalog catalog, MemoryBudget budget) {
        this.catalog = catalog;
        this.budget = budget;
        this.catalogOps = new CatalogOps(catalog);
    }

    /** How graphs clip gradients: {@link GradientClip#BY_VALUE} unless a test swaps in a wrong one. */
    private GradientClip gradientClip = GradientClip.BY_VALUE;

    private Executor executor = Executor.configured();

    /**
     * What evaluates a built SameDiff graph. Either way the graph, and the backward SameDiff builds from each op's
     * {@code doDiff}, are the same; only the executor differs, and with it the cost of a call.
     */
    public enum Executor {
        /**
         * Forward and backward compiled once into a fixed sequence of native calls over preallocated arrays
         * ({@link CompiledFunction}); whatever cannot be compiled runs in the session. The default.
         */
        DIRECT,
        /** SameDiff's own session for every call ({@code output}, {@code calculateGradients}). */
        SAMEDIFF;

        /** The system property that picks the executor ({@code -Dgradcheck.executor=samediff}); direct by default. */
        public static final String PROPERTY = "gradcheck.executor";

        static Executor configured() {
            String value = System.getProperty(PROPERTY, "direct");
            return value.equalsIgnoreCase("samediff") ? SAMEDIFF : DIRECT;
        }
    }

    /** The same builder with graphs clipping gradients another way: tests use it to show a wrong clip fails. */
    public Nd4jOpBuilder withGradientClip(GradientClip clip) {
        Nd4jOpBuilder copy = new Nd4jOpBuilder(catalog, budget);
        copy.gradientClip = clip;
        copy.executor = executor;
        return copy;
    }

    /** The same builder evaluating what it builds with another executor: the bench and tests compare them. */
    public Nd4jOpBuilder withExecutor(Executor executor) {
        Nd4jOpBuilder copy = new Nd4jOpBuilder(catalog, budget);
        copy.gradientClip = gradientClip;
        copy.executor = executor;
        return copy;
    }

    public Executor executor() {
        return executor;
    }

    /**
     * Checks that the op exists and its attributes bind. A graph spec is built and run once as well, on the values
     * check draws and within {@code budget}, so that nodes whose shapes do not fit are found too (ND4J's shape rules
     * live in its kernels).
     *
     * @return for a graph, its output's length by name (for the Jacobians to be weighed); empty for one op, which
     *         is not run here
     */
    public Map<String, Long> validate(OpSpec spec, MemoryBudget budget) throws InvalidSpecException {
        if (spec.graph() != null) {
            return new GraphBuilder(this).validate(spec, budget);
        }
        validateOps(spec);
        return Map.of();
    }

    /** The op names and attributes of a one-op or graph spec, against the catalog alone (no ND4J). */
    void validateOps(OpSpec spec) throws InvalidSpecException {
        catalogOps.validate(spec);
    }

    /** The op's shared instance in SameDiff's class registry, which the op's class and Java properties come from. */
    static DifferentialFunction prototype(String name) {
        return DifferentialFunctionClassHolder.getInstance().getInstance(name);
    }

    /**
     * An instance of the op's class as the catalog names it (the build read it off the registry), else the
     * registry's. Building an op need not wait for SameDiff's class registry to start (0.1-0.2 s, begun on a
     * second thread by {@link Nd4jStartup}); only the first gradient does.
     */
    static DifferentialFunction prototype(String name, String javaClass) {
        if (javaClass != null) {
            try {
                var ctor = Class.forName(javaClass).getDeclaredConstructor();
                ctor.setAccessible(true);
                if (ctor.newInstance() instanceof DifferentialFunction op) {
                    return op;
                }
            } catch (ReflectiveOperationException | RuntimeException e) {
                // not on this class path, or no plain constructor: the registry has it
            }
        }
        return prototype(name);
    }

    /**
     * Positional arguments reach only custom ops. Legacy ops (transforms, reductions, ...) are configured through
     * Java properties, plus a reduction's dimensions; their descriptor's other arguments cannot be set. The op
     * catalog records the result ({@link OpBinding}), which binds a spec's attributes without ND4J.
     */
    static List<ArgInfo> bindableArgs(DifferentialFunction proto, List<ArgInfo> args) {
        if (proto instanceof DynamicCustomOp) {
            return args;
        }
        if (proto instanceof BaseReduceOp) {
            List<ArgInfo> dims = args.stream()
                    .filter(a -> a.name().equals("dimensions") && a.kind() == ArgInfo.Kind.INT).toList();
            if (varianceConstructor(proto).isPresent()) {
                dims = new java.util.ArrayList<>(dims);
                dims.add(new ArgInfo(BIAS_CORRECTED, ArgInfo.Kind.BOOL, 0));
            }
            return dims;
        }
        if (proto instanceof BaseScalarOp) {
            // the op's one floating argument (relu's cutoff, leakyrelu's alpha, pow's pow) is its scalar
            return args.stream().filter(a -> a.kind() == ArgInfo.Kind.FLOAT && a.index() == 0).toList();
        }
        return List.of();
    }

    /**
     * Builds the op (or graph) over the given input arrays (which fix each input's dtype and shape), and runs it
     * once on them, as a graph runs each node when it is built. Both commands build through here, check on the
     * values it draws and validate on the same ones, so whatever ND4J refuses here is one verdict in both: INVALID
     * at what it blames (the attribute it could not take, else the op), with ND4J's reason. Only what fails after
     * this, on the op ND4J accepted, is the operator's error. A spec that expects an error gets ND4J's exception as
     * it came: the failure is what the spec records.
     */
    public Differentiable build(OpSpec spec, Map<String, INDArray> inputs) throws InvalidSpecException {
        if (spec.layer() != null) {
            return LayerSpecs.build(spec, inputs, Nd4jOpBuilder.class.getClassLoader());
        }
        if (spec.graph() != null) {
            return new GraphBuilder(this).build(spec, inputs, gradientClip, budget);
        }
        Differentiable f;
        try {
            f = buildOp(spec.op(), spec.attrs(), inputs, spec.check(), true);
        } catch (RuntimeException e) {
            throw refusal(spec, e, "ND4J cannot build " + spec.op().value() + " on " + described(inputs, spec.attrs()));
        }
        try {
            weighOutputs(f, bytes(inputs.values()), budget, spec.pos(), "its outputs (with its inputs)");
            runOnce(spec, f, inputs);
        } catch (InvalidSpecException | RuntimeException e) {
            f.close();
            throw e;
        }
        return f;
    }

    /**
     * The forward on copies of {@code inputs} (the caller's arrays stay as they were, for the check's own forward to
     * watch): an argument a kernel rejects only when it runs (reduce_min over dimension -100, softmax over dimension
     * 5 of a rank-2 input) is the spec's mistake, found before any checking.
     */
    private static void runOnce(OpSpec spec, Differentiable f, Map<String, INDArray> inputs)
            throws InvalidSpecException {
        Map<String, INDArray> copies = new LinkedHashMap<>();
        inputs.forEach((name, x) -> copies.put(name, x.dup()));
        try {
            f.forward(copies);
        } catch (RuntimeException e) {
            throw refusal(spec, e, spec.op().value() + " rejects " + described(inputs, spec.attrs())
                    + " when run once on the spec's values");
        }
    }

    /**
     * What to throw for {@code e}, thrown while the spec's op was built or first run: the spec error, or, when the
     * spec expects an error, {@code e} itself (so check reports the error the spec records, and validate accepts
     * the spec, as before any checking it is what the spec says).
     */
    private static InvalidSpecException refusal(OpSpec spec, RuntimeException e, String what) {
        if (spec.expect().kind() == Expectation.Kind.ERROR) {
            throw e;
        }
        return refusal(spec.op(), spec.attrs(), e, what);
    }

    /**
     * ND4J's refusal of an op as written, as a spec error: at the attribute whose value the build could not take
     * (its name and the reason, as the binder words its own), otherwise at the op, {@code what} and the reason.
     */
    static InvalidSpecException refusal(Located<String> op, Map<String, Located<Object>> attrs, RuntimeException e,
                                        String what) {
        RefusedAttribute attribute = RefusedAttribute.in(e);
        if (attribute != null && attrs.containsKey(attribute.name())) {
            return new InvalidSpecException(attrs.get(attribute.name()).pos(), "attribute '" + attribute.name()
                    + "' of " + op.value() + ": " + attribute.getMessage());
        }
        return new InvalidSpecException(op.pos(), what + ": " + GraphBuilder.firstLine(e));
    }

    /**
     * Refuses, before it runs, a function whose outputs would take the memory over {@code budget} on top of the
     * {@code held} bytes (an attribute can make a small input's output huge: pad, tile, matmul of a column by a
     * row). Outputs whose size ND4J's shape functions cannot tell are left to the forward pass.
     */
    static void weighOutputs(Differentiable f, long held, MemoryBudget budget, SourcePos pos, String what)
            throws InvalidSpecException {
        OptionalLong out = f.plannedOutputBytes();
        if (out.isPresent()) {
            budget.requireOutputsFit(held, out.getAsLong(), pos, what);
        }
    }

    /** What the arrays take, saturating. */
    static long bytes(Collection<INDArray> arrays) {
        long total = 0;
        for (INDArray a : arrays) {
            total = MemoryBudget.saturatingAdd(total, MemoryBudget.saturatingMul(a.length(), a.dataType().width()));
        }
        return total;
    }

    /**
     * @param checked     the inputs to differentiate by; the others are built as constants
     * @param checkShapes ask ND4J's shape function first (a graph runs each node instead, and says which)
     */
    Differentiable buildOp(Located<String> op, Map<String, Located<Object>> attrs, Map<String, INDArray> inputs,
                           Collection<String> checked, boolean checkShapes) throws InvalidSpecException {
        SameDiffFunction session = sessionFunction(op, attrs, inputs, checked, checkShapes);
        if (executor == Executor.SAMEDIFF) {
            return session;
        }
        Map<String, INDArray> kept = new LinkedHashMap<>();
        inputs.forEach((name, arr) -> kept.put(name, arr.dup()));
        List<String> checkedNames = List.copyOf(checked);
        return new CompiledFunction(session, () -> {
            try {
                return buildOp(op, attrs, kept, checkedNames, false); // its shapes were asked the first time
            } catch (InvalidSpecException e) {
                throw new IllegalStateException("a spec that built once failed to build again", e);
            }
        });
    }

    private SameDiffFunction sessionFunction(Located<String> op, Map<String, Located<Object>> attrs,
                                             Map<String, INDArray> inputs, Collection<String> checked,
                                             boolean checkShapes) throws InvalidSpecException {
        SameDiff sd = SameDiff.create();
        Map<String, SDVariable> vars = variables(sd, inputs, checked);
        List<SDVariable> outputs = addOp(sd, op, attrs, vars.values().toArray(new SDVariable[0]),
                List.copyOf(inputs.values()));
        if (checkShapes) {
            requireShapesFit(sd.getVariableOutputOp(outputs.get(0).name()), op, attrs, inputs);
        }
        // the op's arguments are vars' values in order, so a declared position names its input
        return new SameDiffFunction(sd, vars, outputs).leftAtDefault(leftAtDefault(op, attrs))
                .affineIn(AffineInputs.declared(catalogOps.lookup(op).name(), List.copyOf(vars.keySet())));
    }

    /**
     * The op's settable arguments (what {@code list-ops} shows, data types aside) that {@code attrs} leaves out:
     * the kernels' own defaults apply to them.
     */
    List<String> leftAtDefault(Located<String> op, Map<String, Located<Object>> attrs) throws InvalidSpecException {
        OpInfo info = catalogOps.lookup(op);
        List<String> names = new ArrayList<>();
        for (ArgInfo arg : catalog.binding(info.name()).positional()) {
            if (arg.kind() != ArgInfo.Kind.DTYPE && arg.kind() != ArgInfo.Kind.INPUT && !attrs.containsKey(arg.name())
                    && !names.contains(arg.name())) {
                names.add(arg.name());
            }
        }
        return names;
    }

    /**
     * ND4J's shape function for the op as configured, on the inputs' shapes, without running the op: inputs that
     * do not fit (matmul of [3, 2] by [3, 4]) make the spec invalid at its op, not an operator error. Only custom
     * ops have one in the native registry; legacy ops take their input's shape.
     */
    private static void requireShapesFit(DifferentialFunction built, Located<String> op,
                                         Map<String, Located<Object>> attrs, Map<String, INDArray> inputs)
            throws InvalidSpecException {
        if (!(built instanceof DynamicCustomOp custom)) {
            return;
        }
        try (OpContext context = Nd4j.getExecutioner().buildContext()) {
            context.setInputArrays(new ArrayList<>(inputs.values()));
            context.setIArguments(custom.iArgs());
            context.setTArguments(custom.tArgs());
            context.setBArguments(custom.bArgs());
            context.setDArguments(custom.dArgs());
            Nd4j.getExecutioner().calculateOutputShape(custom, context);
        } catch (RuntimeException e) {
            throw new InvalidSpecException(op.pos(), op.value() + " does not accept " + described(inputs, attrs)
                    + ": ND4J's shape function rejects them: " + GraphBuilder.firstLine(e));
        } catch (Exception e) { // closing the context
            throw new IllegalStateException(e);
        }
    }

    /** {@code inputs x [3, 2], y [3, 4]}, and {@code with dimension: 5} when there are attributes. */
    private static String described(Map<String, INDArray> inputs, Map<String, Located<Object>> attrs) {
        List<String> shapes = new ArrayList<>();
        inputs.forEach((name, x) -> shapes.add(name + " " + java.util.Arrays.toString(x.shape())));
        List<String> given = new ArrayList<>();
        attrs.forEach((name, v) -> given.add(name + ": " + v.value()));
        return "inputs " + String.join(", ", shapes) + (given.isEmpty() ? "" : " with " + String.join(", ", given));
    }

    /**
     * Why calls of {@code f}, a function built here, go to SameDiff's session: empty when every graph it has used
     * so far runs compiled (the bench and the tests ask; a check never needs to know).
     */
    public static Optional<String> sessionUse(Differentiable f) {
        if (f instanceof CompiledFunction compiled) {
            return compiled.fallback();
        }
        if (f instanceof GraphFunction graph) {
            List<String> why = new ArrayList<>();
            for (Differentiable part : graph.parts()) {
                sessionUse(part).ifPresent(why::add);
            }
            return why.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", why));
        }
        return Optional.of(f instanceof SameDiffFunction ? "the SameDiff executor runs every call in the session"
                : f.getClass().getSimpleName() + " is not an ND4J build");
    }

    /** A whole graph's SameDiff function, evaluated by this builder's executor (copied with its graph). */
    Differentiable evaluated(SameDiffFunction session) {
        return executor == Executor.SAMEDIFF ? session : new CompiledFunction(session, null);
    }

    /**
     * Checked floating inputs become SameDiff variables, the others (integer, boolean, no_grad) constants: SameDiff
     * demands a gradient for every variable, and ops such as a mask give none.
     */
    static Map<String, SDVariable> variables(SameDiff sd, Map<String, INDArray> inputs, Collection<String> checked) {
        Map<String, SDVariable> vars = new LinkedHashMap<>();
        for (Map.Entry<String, INDArray> e : inputs.entrySet()) {
            INDArray arr = e.getValue().dup();
            String varName = "input_" + e.getKey();
            boolean variable = arr.dataType().isFPType() && checked.contains(e.getKey());
            vars.put(e.getKey(), variable ? sd.var(varName, arr) : sd.constant(varName, arr));
        }
        return vars;
    }

    /**
     * Adds one op over {@code args} to {@code sd}; a graph adds its nodes one by one. {@code arrays} are the
     * arguments' values (some ops are configured from them, e.g. cumsum's axis). Returns the op's outputs.
     */
    List<SDVariable> addOp(SameDiff sd, Located<String> opName, Map<String, Located<Object>> attrs,
                           SDVariable[] args, List<INDArray> arrays) throws InvalidSpecException {
        OpInfo info = catalogOps.lookup(opName);
        DifferentialFunction proto = prototype(info.name(), info.javaClass());
        AttributeBinder.Bound bound = catalogOps.bind(info, attrs);
        Optional<ConfiguredOps.Construction> configured = ConfiguredOps.find(info.name());
        DifferentialFunction op;
        if (configured.isPresent()) {
            op = configured.get().build(sd, List.of(args), arrays, bound.byName());
        } else if (proto instanceof BaseReduceOp && args.length == 1) {
            op = reduction(proto, sd, args[0], bound);
        } else {
            op = blank(proto, sd, args, bound);
        }
        return new ArrayList<>(List.of(op.outputVariables()));
    }

    /** Variance and standard deviation take Bessel's correction before keepDims; it defaults to on, as in ND4J. */
    private static final String BIAS_CORRECTED = "biasCorrected";

    /** The (SameDiff, SDVariable, biasCorrected, keepDims, dims) constructor, where the op has one. */
    private static Optional<Constructor<?>> varianceConstructor(DifferentialFunction proto) {
        try {
            return Optional.of(proto.getClass()
                    .getConstructor(SameDiff.class, SDVariable.class, boolean.class, boolean.class, int[].class));
        } catch (NoSuchMethodException e) {
            return Optional.empty();
        }
    }

    private static DifferentialFunction instantiate(DifferentialFunction proto) {
        try {
            var ctor = proto.getClass().getDeclaredConstructor();
            ctor.setAccessible(true);
            return ctor.newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot instantiate " + proto.getClass().getName(), e);
        }
    }

    /** A custom (or other non-reduction) op: a blank instance, registered in the graph, then configured. */
    private static DifferentialFunction blank(DifferentialFunction proto, SameDiff sd, SDVariable[] args,
                                              AttributeBinder.Bound bound) {
        DifferentialFunction op = instantiate(proto);
        op.setSameDiff(sd);
        String opName = uniqueOpName(sd, op.opName());
        op.setOwnName(opName);
        sd.putOpForId(opName, op);
        sd.addArgsFor(args, op);
        if (op instanceof DynamicCustomOp custom) {
            bound.ints().forEach(custom::addIArgument);
            bound.floats().forEach(custom::addTArgument);
            bound.bools().forEach(custom::addBArgument);
            bound.dtypes().forEach(d -> custom.addDArgument(Nd4jTypes.of(d)));
            custom.configureFromArguments();
        }
        if (op instanceof BaseScalarOp scalarOp) {
            // in the input's dtype: a float scalar beside a double input fails in the kernel
            double value = bound.floats().isEmpty() ? 0.0 : bound.floats().get(0);
            scalarOp.setScalar(Nd4j.scalar(args[0].dataType(), value));
        }
        setProperties(op, bound.byName(), bound.positional());
        return op;
    }

    /** An op name used by no op or variable yet: a graph holds several ops of one kind, and outputs take the name. */
    private static String uniqueOpName(SameDiff sd, String base) {
        String name = base;
        for (int k = 1; sd.getOps().containsKey(name) || sd.hasVariable(name); k++) {
            name = base + "_" + k;
        }
        return name;
    }

    /**
     * A legacy reduction keeps its dimensions outside the argument lists, where only its own constructor
     * (the one {@code sd.sum(x, keepDims, dims)} uses) sets them consistently.
     */
    private static DifferentialFunction reduction(DifferentialFunction proto, SameDiff sd, SDVariable input,
                                                  AttributeBinder.Bound bound) {
        Map<String, Object> rest = new LinkedHashMap<>(bound.byName());
        Object dimsValue = rest.remove("dimensions");
        Object keepValue = rest.remove("keepDims");
        Object biasValue = rest.remove(BIAS_CORRECTED);
        int[] dims = dimsValue == null ? new int[0]
                : AttrValues.toLongs(dimsValue).stream().mapToInt(Long::intValue).toArray();
        boolean keepDims = keepValue != null && RefusedAttribute.convert("keepDims", keepValue, AttrValues::toBoolean);
        DifferentialFunction op;
        try {
            Optional<Constructor<?>> variance = varianceConstructor(proto);
            if (variance.isPresent()) {
                boolean biasCorrected = biasValue == null
                        || RefusedAttribute.convert(BIAS_CORRECTED, biasValue, AttrValues::toBoolean);
                op = (DifferentialFunction) variance.get().newInstance(sd, input, biasCorrected, keepDims, dims);
            } else {
                op = (DifferentialFunction) proto.getClass()
                        .getConstructor(SameDiff.class, SDVariable.class, boolean.class, int[].class)
                        .newInstance(sd, input, keepDims, dims);
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(proto.opName() + " has no (SameDiff, SDVariable, boolean, int[])"
                    + " constructor to set its dimensions with", e);
        }
        setProperties(op, rest, bound.positional());
        return op;
    }

    /**
     * Java-side properties that {@code configureFromArguments} does not set (or that legacy ops only have as
     * properties) are set by name, converted to the property's own type.
     */
    private static void setProperties(DifferentialFunction op, Map<String, Object> byName, Set<String> positional) {
        Map<String, Object> current = properties(op);
        Map<String, Object> update = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : byName.entrySet()) {
            if (!current.containsKey(e.getKey())) {
                continue;
            }
            Object converted;
            try {
                Object like = current.get(e.getKey());
                converted = RefusedAttribute.convert(e.getKey(), e.getValue(), v -> convertLike(like, v));
            } catch (IllegalArgumentException ex) {
                if (positional.contains(e.getKey())) {
                    // the argument lists already carry it; the property cannot hold it (reverse reports only its
                    // first dimension as a scalar 'dimensions' property, while its kernel reads all of them)
                    continue;
                }
                throw ex;
            }
            if (!converted.equals(current.get(e.getKey()))) {
                update.put(e.getKey(), converted);
            }
        }
        if (!update.isEmpty()) {
            op.setPropertiesForFunction(update);
        }
    }

    private static Object convertLike(Object like, Object value) {
        if (like instanceof Integer) {
            return (int) AttrValues.toLong(value);
        }
        if (like instanceof Long) {
            return AttrValues.toLong(value);
        }
        if (like instanceof Double) {
            return AttrValues.toDouble(value);
        }
        if (like instanceof Boolean) {
            return AttrValues.toBoolean(value);
        }
        if (like instanceof int[]) {
            return AttrValues.toLongs(value).stream().mapToInt(Long::intValue).toArray();
        }
        if (like instanceof long[]) {
            return AttrValues.toLongs(value).stream().mapToLong(Long::longValue).toArray();
        }
        return value instanceof Long l && like == null ? l.intValue() : value;
    }

    static Set<String> propertyNames(DifferentialFunction proto) {
        return properties(proto).keySet();
    }

    /** Some ops throw from propertiesForFunction before they are configured: they then have no settable ones. */
    private static Map<String, Object> properties(DifferentialFunction op) {
        try {
            Map<String, Object> p = op.propertiesForFunction();
            return p == null ? Map.of() : p;
        } catch (RuntimeException e) {
            return Map.of();
        }
    }
}
