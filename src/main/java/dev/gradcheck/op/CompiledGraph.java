package dev.gradcheck.op;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.VariableType;
import org.nd4j.autodiff.samediff.internal.SameDiffOp;
import org.nd4j.autodiff.samediff.internal.Variable;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.BaseOp;
import org.nd4j.linalg.api.ops.CustomOp;
import org.nd4j.linalg.api.ops.DynamicCustomOp;
import org.nd4j.linalg.api.ops.Op;
import org.nd4j.linalg.api.ops.OpContext;
import org.nd4j.linalg.api.ops.RandomOp;
import org.nd4j.linalg.api.ops.ReduceOp;
import org.nd4j.linalg.api.ops.ScalarOp;
import org.nd4j.linalg.api.ops.custom.Invoke;
import org.nd4j.linalg.api.ops.impl.controlflow.compat.BaseCompatOp;
import org.nd4j.linalg.api.ops.impl.layers.ExternalErrorsFunction;
import org.nd4j.linalg.api.ops.impl.shape.CreateView;
import org.nd4j.linalg.api.ops.impl.shape.tensorops.BaseTensorOp;
import org.nd4j.linalg.api.ops.impl.transforms.Assert;
import org.nd4j.linalg.api.ops.impl.transforms.custom.Assign;
import org.nd4j.linalg.api.ops.impl.transforms.gradient.GradientBackwardsMarker;
import org.nd4j.linalg.api.ops.impl.transforms.same.Identity;
import org.nd4j.linalg.api.shape.LongShapeDescriptor;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The ops a SameDiff graph runs to produce some of its variables, compiled once into a fixed sequence of native
 * calls over arrays allocated once: one {@link OpContext} per op, its inputs, arguments and outputs set at compile
 * time, so a run is one {@code Nd4j.exec} per op.
 *
 * <p>This is what SameDiff's {@code InferenceSession} does on every call (find the subgraph the requested
 * variables need, order it, look up each op's input arrays, compute output shapes, allocate, execute), done once.
 * Each op runs with the same arguments as there, on the same input values, and output arrays get the same shapes
 * and data types (a custom op's outputs take the graph variable's data type, as in the session), so results are
 * bit for bit the same. The graph stays SameDiff's: the ops are the graph's own objects, the backward what their
 * {@code doDiff} built.
 *
 * <p>Steps remember what their values depend on: nothing that changes (constants), the function's inputs, or the
 * cotangents. A run skips steps whose inputs have not changed since they last ran, so the forward part of a VJP
 * runs once per input point, not once per Jacobian row. The caller says when the inputs changed
 * ({@link #run(long)}'s version).
 *
 * <p>What cannot be compiled ({@link NotCompilable}, the caller then keeps SameDiff's session): control flow and
 * TensorArray ops, ops the session special-cases (assign, views, asserts, external errors, invoke), a reduction
 * whose axes or a scalar op whose scalar is a graph input, control dependencies. Output shapes are fixed at compile
 * time; a step whose output shape may depend on input values (an op of {@link #VALUE_SHAPED}, or one reading an
 * integer or boolean array computed from the inputs) has them recomputed on every run, and a change throws
 * {@link ShapeChanged} so that the caller hands the call to the session.
 */
final class CompiledGraph implements AutoCloseable {

    /** Why a graph is left to SameDiff's session. */
    static final class NotCompilable extends Exception {
        NotCompilable(String message) {
            super(message);
        }
    }

    /** A step's output shape changed under new input values: the compiled arrays no longer fit. */
    static final class ShapeChanged extends RuntimeException {
        ShapeChanged(String message) {
            super(message);
        }
    }

    /**
     * Ops whose output shape is computed from their floating inputs' values, not only their shapes (unique,
     * nonzero indices, a range of float bounds, ...).
     */
    static final Set<String> VALUE_SHAPED = Set.of("unique", "unique_with_counts", "Where", "where_np", "choose",
            "listdiff", "non_max_suppression", "non_max_suppression_v3", "non_max_suppression_overlaps", "range",
            "boolean_mask", "dynamic_partition", "sequence_mask", "confusion_matrix", "bincount", "linspace");

    /** Ops whose outputs depend on their inputs' shapes alone: fixed while the shapes are. */
    static final Set<String> SHAPE_ONLY = Set.of("shape_of", "shapes_of", "size", "rank", "size_at", "zeros_as",
            "ones_as");

    /** What a value depends on; a step depends on the most varying of its inputs (EVERY_RUN: the cotangents). */
    enum Source { FIXED, INPUT, EVERY_RUN }

    private static final class Step {
        final DifferentialFunction op;
        final OpContext context;
        final Source source;
        final boolean recheckShapes;
        final List<LongShapeDescriptor> shapes;
        long ranAt = -1;

        Step(DifferentialFunction op, OpContext context, Source source, boolean recheckShapes,
             List<LongShapeDescriptor> shapes) {
            this.op = op;
            this.context = context;
            this.source = source;
            this.recheckShapes = recheckShapes;
            this.shapes = shapes;
        }
    }

    private final List<Step> steps;
    private final Map<String, INDArray> values;
    private boolean closed;

    private CompiledGraph(List<Step> steps, Map<String, INDArray> values) {
        this.steps = steps;
        this.values = values;
    }

    /**
     * @param graph        the SameDiff graph (a forward graph, or SameDiff's gradient function)
     * @param wanted       the variables to produce
     * @param inputs       graph variable name → the array the caller assigns inputs into (the variable's own
     *                     array); floating ones vary from run to run, the others are fixed (the caller watches them)
     * @param fed          variable name → the array the caller copies a value into before each run: the cotangent
     *                     placeholders, or variables that hold exactly a cotangent (the ops producing them are then
     *                     not compiled)
     */
    static CompiledGraph compile(SameDiff graph, List<String> wanted, Map<String, INDArray> inputs,
                                 Map<String, INDArray> fed) throws NotCompilable {
        Map<String, INDArray> values = new HashMap<>();
        Map<String, Source> sources = new HashMap<>();
        List<Step> steps = new ArrayList<>();
        try {
            for (String opName : order(graph, wanted, fed.keySet())) {
                Step step = compileStep(graph, graph.getOps().get(opName), inputs, fed, values, sources);
                if (step != null) {
                    steps.add(step);
                    // run now: the next ops' shapes may be computed from its values (reshape, slice, eye, ...)
                    probe(step);
                }
            }
            for (String w : wanted) {
                value(graph, w, inputs, fed, values, sources);
            }
        } catch (NotCompilable | RuntimeException e) {
            steps.forEach(s -> close(s.context));
            if (e instanceof NotCompilable nc) {
                throw nc;
            }
            throw new NotCompilable("compiling the graph failed: " + e);
        }
        return new CompiledGraph(steps, values);
    }

    /**
     * Runs a step twice, its outputs filled first with zeros, then with NaN (or ones, for integers): a kernel whose
     * result differs read its output array before writing it (cumprod_bp in ND4J M2.1 does). SameDiff's session
     * hands such a kernel whatever its memory manager last kept in that array; no fixed sequence can reproduce
     * that, so the graph stays with the session.
     */
    private static void probe(Step step) throws NotCompilable {
        List<INDArray> outputs = step.context.getOutputArrays();
        List<byte[]> first = new ArrayList<>();
        for (INDArray out : outputs) {
            out.assign(0);
        }
        exec(step);
        for (INDArray out : outputs) {
            first.add(bytes(out));
            out.assign(out.dataType().isFPType() ? Double.NaN : 1);
        }
        exec(step);
        for (int i = 0; i < outputs.size(); i++) {
            if (!Arrays.equals(first.get(i), bytes(outputs.get(i)))) {
                throw new NotCompilable(step.op.opName() + "'s result depends on what its output array held before");
            }
        }
    }

    /**
     * An array's contents, byte for byte, copied onto the Java heap (cheap next to an ND4J allocation): two arrays
     * of one dtype and shape hold the same values exactly when these are equal.
     */
    static byte[] bytes(INDArray a) {
        if (a.isEmpty()) {
            return new byte[0];
        }
        INDArray own = !a.isView() && a.ordering() == 'c' && a.data().length() == a.length() ? a : a.dup('c');
        return own.data().asBytes();
    }

    private static void exec(Step step) {
        if (step.op instanceof CustomOp custom) {
            Nd4j.exec(custom, step.context);
        } else {
            Nd4j.exec((Op) step.op, step.context);
        }
    }

    /** The ops {@code wanted} needs, each after the ops producing its inputs (a depth-first topological order). */
    private static List<String> order(SameDiff graph, List<String> wanted, Set<String> fed) throws NotCompilable {
        List<String> order = new ArrayList<>();
        Set<String> done = new HashSet<>();
        Set<String> onPath = new HashSet<>();
        for (String w : wanted) {
            if (!graph.hasVariable(w)) {
                throw new NotCompilable("no variable " + w);
            }
            visit(graph, w, fed, done, onPath, order);
        }
        return order;
    }

    /**
     * Depth-first from {@code root}, adding each op after the ops it needs. Iterative, with a stack of its own: a
     * chain of thousands of nodes is as deep as the graph is long, deeper than the thread's stack goes.
     */
    private static void visit(SameDiff graph, String root, Set<String> fed, Set<String> done, Set<String> onPath,
                              List<String> order) throws NotCompilable {
        Deque<Frame> stack = new ArrayDeque<>();
        String first = enter(graph, root, fed, done, onPath);
        if (first != null) {
            stack.push(new Frame(first, graph.getOps().get(first).getOp().argNames()));
        }
        while (!stack.isEmpty()) {
            Frame top = stack.peek();
            if (top.next < top.args.length) {
                String producer = enter(graph, top.args[top.next++], fed, done, onPath);
                if (producer != null) {
                    stack.push(new Frame(producer, graph.getOps().get(producer).getOp().argNames()));
                }
            } else {
                stack.pop();
                onPath.remove(top.op);
                done.add(top.op);
                order.add(top.op);
            }
        }
    }

    /** An op being visited, and the next of its inputs to visit. */
    private static final class Frame {
        final String op;
        final String[] args;
        int next;

        Frame(String op, String[] args) {
            this.op = op;
            this.args = args;
        }
    }

    /** The op producing {@code var}, now on the path, if it is still to be visited; null if not. */
    private static String enter(SameDiff graph, String var, Set<String> fed, Set<String> done, Set<String> onPath)
            throws NotCompilable {
        if (fed.contains(var)) {
            return null; // its value comes from the caller
        }
        Variable v = graph.getVariables().get(var);
        if (v == null) {
            throw new NotCompilable("no variable " + var);
        }
        if (v.getControlDeps() != null && !v.getControlDeps().isEmpty()) {
            throw new NotCompilable("variable " + var + " has control dependencies");
        }
        String producer = v.getOutputOfOp();
        if (producer == null || done.contains(producer)) {
            return null;
        }
        if (!onPath.add(producer)) {
            throw new NotCompilable("the graph loops (control flow) through " + producer);
        }
        SameDiffOp op = graph.getOps().get(producer);
        if (op.getControlDeps() != null && !op.getControlDeps().isEmpty()
                || op.getVarControlDeps() != null && !op.getVarControlDeps().isEmpty()) {
            throw new NotCompilable("op " + producer + " has control dependencies");
        }
        return producer;
    }

    /** One op as a step over its input arrays, with its outputs allocated; null for an identity (an alias). */
    private static Step compileStep(SameDiff graph, SameDiffOp sdo, Map<String, INDArray> inputs,
                                    Map<String, INDArray> fed, Map<String, INDArray> values,
                                    Map<String, Source> sources) throws NotCompilable {
        DifferentialFunction df = sdo.getOp();
        refuseSpecialCases(df);
        String[] argNames = df.argNames();
        INDArray[] args = new INDArray[argNames.length];
        Source source = Source.FIXED;
        boolean readsVaryingIndices = false;
        for (int i = 0; i < argNames.length; i++) {
            args[i] = value(graph, argNames[i], inputs, fed, values, sources);
            Source s = sources.get(argNames[i]);
            source = s.compareTo(source) > 0 ? s : source;
            readsVaryingIndices |= s != Source.FIXED && !args[i].dataType().isFPType();
        }
        if (SHAPE_ONLY.contains(df.opName())) {
            source = Source.FIXED; // shapes do not change between runs, only values
        }
        String[] outNames = df.outputVariablesNames();
        if (df instanceof Identity) {
            // the session passes the input through without a copy
            values.put(outNames[0], args[0]);
            sources.put(outNames[0], source);
            return null;
        }
        boolean recheck = readsVaryingIndices || VALUE_SHAPED.contains(df.opName());
        OpContext context = Nd4j.getExecutioner().buildContext();
        try {
            List<LongShapeDescriptor> shapes;
            if (df instanceof DynamicCustomOp custom) {
                context.setArgs(args, custom.iArgs(), custom.dArgs(), custom.tArgs(), custom.bArgs());
                shapes = customShapes(graph, custom, context);
            } else if (df instanceof BaseOp legacy) {
                if (args.length > 0) {
                    context.setInputArray(0, args[0]);
                }
                if (args.length == 2) {
                    context.setInputArray(1, args[1]);
                }
                shapes = legacy.calculateOutputShape(context);
                if (shapes == null || shapes.size() != 1) {
                    throw new NotCompilable("no output shape for " + df.opName());
                }
            } else {
                throw new NotCompilable(df.opName() + " is neither a custom nor a legacy op");
            }
            if (shapes.size() != outNames.length) {
                throw new NotCompilable(df.opName() + ": " + shapes.size() + " output shapes for " + outNames.length
                        + " outputs");
            }
            for (int i = 0; i < outNames.length; i++) {
                INDArray out = Nd4j.create(shapes.get(i), true);
                context.setOutputArray(i, out);
                values.put(outNames[i], out);
                sources.put(outNames[i], source);
            }
            return new Step(df, context, source, recheck, shapes);
        } catch (NotCompilable | RuntimeException e) {
            close(context);
            throw e;
        }
    }

    /** The output shapes the session allocates: the kernel's, in the graph variables' data types. */
    private static List<LongShapeDescriptor> customShapes(SameDiff graph, DynamicCustomOp op, OpContext context)
            throws NotCompilable {
        List<LongShapeDescriptor> shapes = op.calculateOutputShape(context);
        if (shapes == null || shapes.isEmpty()) {
            throw new NotCompilable("no output shapes for " + op.opName());
        }
        String[] outNames = op.outputVariablesNames();
        List<LongShapeDescriptor> typed = new ArrayList<>();
        for (int i = 0; i < shapes.size() && i < outNames.length; i++) {
            DataType dt = graph.getVariable(outNames[i]).dataType();
            typed.add(shapes.get(i).dataType() == dt ? shapes.get(i) : shapes.get(i).asDataType(dt));
        }
        for (int i = outNames.length; i < shapes.size(); i++) {
            typed.add(shapes.get(i));
        }
        return typed;
    }

    /** Ops that InferenceSession does not run as a plain kernel call, or configures from input values. */
    private static void refuseSpecialCases(DifferentialFunction df) throws NotCompilable {
        if (df instanceof BaseCompatOp || df instanceof BaseTensorOp || df instanceof Invoke || df instanceof Assign
                || df instanceof CreateView || df instanceof ExternalErrorsFunction || df instanceof Assert
                || df instanceof GradientBackwardsMarker) {
            throw new NotCompilable(df.opName() + " is executed specially by SameDiff's session");
        }
        if (df instanceof RandomOp || df.getClass().getPackageName().startsWith("org.nd4j.linalg.api.ops.random")) {
            // a fresh draw per call, from the global generator the session also draws from
            throw new NotCompilable(df.opName() + " is random");
        }
        if (!(df instanceof CustomOp) && !(df instanceof Op)) {
            throw new NotCompilable(df.opName() + " is not an executable op");
        }
        int args = df.argNames().length;
        if (df instanceof ReduceOp reduce && reduce.getOpType() != Op.Type.REDUCE3 && args == 2) {
            throw new NotCompilable(df.opName() + " takes its axes from a graph input");
        }
        if (df instanceof ScalarOp && args == 2) {
            throw new NotCompilable(df.opName() + " takes its scalar from a graph input");
        }
    }

    /** The array a variable reads from: an input, a fed value, a constant or variable, or a step's output. */
    private static INDArray value(SameDiff graph, String name, Map<String, INDArray> inputs,
                                  Map<String, INDArray> fed, Map<String, INDArray> values,
                                  Map<String, Source> sources) throws NotCompilable {
        INDArray known = values.get(name);
        if (known != null) {
            return known;
        }
        SDVariable v = graph.getVariable(name);
        INDArray arr;
        Source source;
        if (inputs.containsKey(name)) {
            arr = inputs.get(name);
            if (graph.getArrForVarName(name) != arr) {
                throw new NotCompilable("input " + name + " is not the graph's own array");
            }
            source = arr.dataType().isFPType() ? Source.INPUT : Source.FIXED;
        } else if (fed.containsKey(name)) {
            arr = fed.get(name);
            if (arr.dataType() != v.dataType()) {
                throw new NotCompilable("the array fed to " + name + " is " + arr.dataType() + ", not " + v.dataType());
            }
            source = Source.EVERY_RUN;
        } else if (v.getVariableType() == VariableType.PLACEHOLDER) {
            throw new NotCompilable("no array for placeholder " + name);
        } else if (v.getVariableType() == VariableType.CONSTANT || v.getVariableType() == VariableType.VARIABLE) {
            arr = v.getArr();
            source = Source.FIXED;
        } else {
            throw new NotCompilable("variable " + name + " has no value before its op runs");
        }
        if (arr == null) {
            throw new NotCompilable("variable " + name + " has no array");
        }
        values.put(name, arr);
        sources.put(name, source);
        return arr;
    }

    /**
     * Runs every step whose inputs changed: cotangent and random steps always, input steps when {@code inputVersion} differs
     * from the one they last ran at, fixed steps once.
     */
    void run(long inputVersion) {
        for (Step step : steps) {
            boolean current = switch (step.source) {
                case FIXED -> step.ranAt >= 0;
                case INPUT -> step.ranAt == inputVersion;
                case EVERY_RUN -> false;
            };
            if (current) {
                continue;
            }
            if (step.recheckShapes) {
                recheck(step);
            }
            exec(step);
            step.ranAt = inputVersion;
        }
    }

    private static void recheck(Step step) {
        List<LongShapeDescriptor> now = step.op instanceof DynamicCustomOp custom
                ? custom.calculateOutputShape(step.context) : ((BaseOp) step.op).calculateOutputShape(step.context);
        for (int i = 0; i < step.shapes.size(); i++) {
            if (!Arrays.equals(now.get(i).getShape(), step.shapes.get(i).getShape())) {
                throw new ShapeChanged(step.op.opName() + "'s output " + i + " changed shape from "
                        + Arrays.toString(step.shapes.get(i).getShape()) + " to " + Arrays.toString(now.get(i).getShape()));
            }
        }
    }

    /** A variable's array after {@link #run}: the caller copies what it hands out. */
    INDArray get(String name) {
        return values.get(name);
    }

    int size() {
        return steps.size();
    }

    /** Frees the native contexts; a second close does nothing. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            steps.forEach(s -> close(s.context));
        }
    }

    private static void close(OpContext context) {
        try {
            context.close();
        } catch (Exception e) {
            // a native context that cannot be freed leaks a few bytes; nothing to report to a check
        }
    }
}
