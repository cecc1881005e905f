package dev.gradcheck.op;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import dev.gradcheck.op.catalog.AffineInputs;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A {@link SameDiffFunction} run without SameDiff's session after its first call: its forward graph, and the
 * gradient function SameDiff builds for it (from each op's {@code doDiff}: exactly the ops the session runs), each
 * compiled into a {@link CompiledGraph}. Same outputs and VJPs, bit for bit, at a fraction of the per-call cost.
 *
 * <p>The first forward, and the first VJP for each set of inputs differentiated, run in the session: it defines
 * the loss and builds its gradient function as {@code calculateGradients} always does, and whatever it throws
 * reaches the caller as SameDiff's own error. Then the graph is compiled, run on the same values, and kept only if
 * it gives the session's result bit for bit. Everything else stays with the session: a graph that cannot be
 * compiled ({@link CompiledGraph}), a compiled run that fails (a kernel error, an output that changed shape: that
 * call and every later one), a call unlike the first (cotangents for other outputs or shapes), an integer or
 * boolean input that changed (shapes were fixed for it).
 */
final class CompiledFunction implements Differentiable {

    /**
     * One compiled graph and the variables a run's results are read from, or why its calls go to the session. The
     * variables are looked up once: a backward pass's lookup of each input's gradient variable in SameDiff's maps
     * cost about as much as copying its cotangent in (1% of a tanh 1000 fast check, 2026-11-29).
     */
    private record Compiled(CompiledGraph graph, String fallback, List<String> results) {
        static Compiled session(String why) {
            return new Compiled(null, why, null);
        }
    }

    private final SameDiffFunction session;
    private final Supplier<Differentiable> rebuild;
    /** The first-order function a backward function took over (closed with it), or null. */
    private CompiledFunction takenOver;
    private boolean closed;
    private final Map<String, INDArray> inputArrays = new LinkedHashMap<>();
    private final InputVersions versions;
    private Compiled forward;
    /** Per list of inputs differentiated. */
    private final Map<List<String>, Compiled> backwards = new HashMap<>();
    /** Output name → the array its cotangent is copied into: the outputs the session's loss reads. */
    private Map<String, INDArray> cotangents;
    private String failed;

    /**
     * @param rebuild builds an equal function from scratch, for {@link #copy()}; null where a copy is made another
     *                way (a graph's whole-graph function is copied with its graph)
     */
    CompiledFunction(SameDiffFunction session, Supplier<Differentiable> rebuild) {
        this.session = session;
        this.rebuild = rebuild;
        for (String name : session.inputNames()) {
            inputArrays.put(name, session.inputVariable(name).getArr());
        }
        this.versions = new InputVersions(inputArrays);
    }

    @Override
    public List<String> inputNames() {
        return session.inputNames();
    }

    @Override
    public List<String> outputNames() {
        return session.outputNames();
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
        return forward(inputs, true);
    }

    /** Without copies: the compiled graph's own output arrays, which its next run overwrites. */
    @Override
    public Map<String, INDArray> forwardTransient(Map<String, INDArray> inputs) {
        return forward(inputs, false);
    }

    @Override
    public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangentValues,
                                     List<String> wrt) {
        return vjp(inputs, cotangentValues, wrt, true);
    }

    /** Without copies: the compiled graph's own gradient arrays, which its next run overwrites. */
    @Override
    public Map<String, INDArray> vjpTransient(Map<String, INDArray> inputs, Map<String, INDArray> cotangentValues,
                                              List<String> wrt) {
        return vjp(inputs, cotangentValues, wrt, false);
    }

    /** @param copy whether the caller gets copies of the compiled graph's arrays (the session's are its own) */
    private Map<String, INDArray> forward(Map<String, INDArray> inputs, boolean copy) {
        if (forward == null) {
            Map<String, INDArray> out = firstCall(() -> session.forward(inputs), c -> forward = c);
            forward = compileAndVerify(inputs, out, session.sameDiff(), session.outputVariableNames(), outputNames(),
                    Map.of());
            return out;
        }
        if (forward.graph() == null || failed != null) {
            return session.forward(inputs);
        }
        try {
            forward.graph().run(assign(inputs));
        } catch (RuntimeException e) {
            return fail(e, () -> session.forward(inputs));
        }
        if (failed != null) {
            return session.forward(inputs);
        }
        return results(forward.graph(), session.outputVariableNames(), outputNames(), copy);
    }

    private Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangentValues,
                                      List<String> wrt, boolean copy) {
        Compiled backward = backwards.get(wrt);
        if (backward == null) {
            List<String> key = List.copyOf(wrt);
            Map<String, INDArray> grads = firstCall(() -> session.vjp(inputs, cotangentValues, wrt),
                    c -> backwards.put(key, c));
            backwards.put(key, compileBackward(inputs, cotangentValues, wrt, grads));
            return grads;
        }
        if (backward.graph() == null || failed != null || !sameCotangents(cotangentValues)) {
            return session.vjp(inputs, cotangentValues, wrt);
        }
        try {
            long version = assign(inputs);
            if (failed != null) {
                return session.vjp(inputs, cotangentValues, wrt);
            }
            cotangents.forEach((name, arr) -> PlainArrays.copy(arr, cotangentValues.get(name)));
            backward.graph().run(version);
        } catch (RuntimeException e) {
            return fail(e, () -> session.vjp(inputs, cotangentValues, wrt));
        }
        return results(backward.graph(), backward.results(), wrt, copy);
    }

    private interface SessionCall {
        Map<String, INDArray> run();
    }

    /** A first call, made by the session; if it throws, that graph's later calls go there too. */
    private Map<String, INDArray> firstCall(SessionCall call, java.util.function.Consumer<Compiled> onError) {
        try {
            return call.run();
        } catch (RuntimeException | Error e) {
            onError.accept(Compiled.session("its first call failed in the session"));
            throw e;
        }
    }

    /** A compiled run failed: the session answers this call, and every later one. */
    private Map<String, INDArray> fail(RuntimeException e, SessionCall again) {
        failed = "a compiled run failed (" + e.getMessage() + ")";
        return again.run();
    }

    /**
     * Assigns the inputs as the session does, into the arrays the compiled graphs read (the session's own, taken
     * once: looking each up in SameDiff per call cost about a copy of it), and notes whether they changed.
     */
    private long assign(Map<String, INDArray> inputs) {
        for (Map.Entry<String, INDArray> e : inputs.entrySet()) {
            INDArray own = inputArrays.get(e.getKey());
            if (own == null) {
                throw new IllegalArgumentException("no input named " + e.getKey());
            }
            PlainArrays.copy(own, e.getValue());
        }
        long version = versions.update(inputs.keySet());
        if (versions.fixedInputChanged() && failed == null) {
            failed = "an integer or boolean input changed"; // shapes were compiled for the values they had
        }
        return version;
    }

    /** The named variables' arrays (copies, or the graph's own), under the caller's names. */
    private static Map<String, INDArray> results(CompiledGraph graph, List<String> vars, List<String> names,
                                                 boolean copy) {
        Map<String, INDArray> out = new HashMap<>();
        for (int i = 0; i < vars.size(); i++) {
            INDArray a = graph.get(vars.get(i));
            out.put(names.get(i), copy ? a.dup() : a);
        }
        return out;
    }

    /**
     * Compiles {@code wanted} in {@code graph}, runs it at the inputs the session just used, and keeps it if it
     * gives the session's result bit for bit.
     */
    private Compiled compileAndVerify(Map<String, INDArray> inputs, Map<String, INDArray> sessionResult,
                                      SameDiff graph, List<String> wanted, List<String> names,
                                      Map<String, INDArray> placeholders) {
        CompiledGraph compiled;
        try {
            compiled = CompiledGraph.compile(graph, wanted, byVariable(), placeholders);
        } catch (CompiledGraph.NotCompilable e) {
            return Compiled.session(e.getMessage());
        }
        try {
            compiled.run(assign(inputs));
            for (int i = 0; i < wanted.size(); i++) {
                if (!sameBits(sessionResult.get(names.get(i)), compiled.get(wanted.get(i)))) {
                    compiled.close();
                    return Compiled.session("the compiled graph's " + names.get(i) + " differed from the session's");
                }
            }
        } catch (RuntimeException e) {
            compiled.close();
            return Compiled.session("the compiled graph failed where the session did not: " + e.getMessage());
        }
        return new Compiled(compiled, null, List.copyOf(wanted));
    }

    private static boolean sameBits(INDArray a, INDArray b) {
        if (a == null || b == null || a.dataType() != b.dataType() || !Arrays.equals(a.shape(), b.shape())) {
            return false;
        }
        return Arrays.equals(CompiledGraph.bytes(a), CompiledGraph.bytes(b));
    }

    /** After the session's first VJP for {@code wrt}: its loss and gradient function exist; compile those. */
    private Compiled compileBackward(Map<String, INDArray> inputs, Map<String, INDArray> cotangentValues,
                                     List<String> wrt, Map<String, INDArray> sessionGrads) {
        SameDiff sd = session.sameDiff();
        SameDiff gradFunction = sd.getFunction(SameDiffFunction.GRAD_FUNCTION);
        List<String> gradVars = gradientVariables(wrt);
        if (gradFunction == null || gradVars.contains(null) || !sessionGrads.keySet().containsAll(wrt)) {
            return Compiled.session("an input has no gradient variable");
        }
        if (cotangents == null) {
            Map<String, INDArray> arrays = new LinkedHashMap<>();
            for (int i : session.defineLossOnce(cotangentValues)) { // defined by the session's call: returns it
                SDVariable ph = sd.getVariable(SameDiffFunction.cotangentPlaceholder(i));
                INDArray c = cotangentValues.get(outputNames().get(i));
                arrays.put(outputNames().get(i), Nd4j.create(ph.dataType(), c.shape()));
            }
            cotangents = arrays;
        }
        if (!sameCotangents(cotangentValues)) {
            return Compiled.session("the first VJP's cotangents are not those of the loss");
        }
        Map<String, INDArray> fed = new HashMap<>();
        List<String> outputs = outputNames();
        for (int i = 0; i < outputs.size(); i++) {
            INDArray arr = cotangents.get(outputs.get(i));
            if (arr != null) {
                arr.assign(cotangentValues.get(outputs.get(i)));
                fed.put(seededGradient(gradFunction, i, arr).orElse(SameDiffFunction.cotangentPlaceholder(i)), arr);
            }
        }
        return compileAndVerify(inputs, sessionGrads, gradFunction, gradVars, wrt, fed);
    }

    /**
     * The gradient function's variable for d loss / d output {@code i}, where it is exactly the cotangent: made by
     * the loss term's own {@code multiply_bp(out, c, ones)} and nothing else (an output that other ops also read
     * gets a sum instead). The loss {@code sum(c ⊙ out)} is gradcheck's seeding, not the op's backward: feeding
     * the cotangent there skips four kernels per VJP (multiply, reduce_sum, reduce_sum_bp, multiply_bp), whose
     * result is c times an exact 1.0. The first VJP's comparison with the session still checks it bit for bit.
     */
    private Optional<String> seededGradient(SameDiff gradFunction, int i, INDArray cotangent) {
        String out = session.outputVariableNames().get(i);
        SDVariable grad = session.sameDiff().getVariable(out).getGradient();
        if (grad == null || !gradFunction.hasVariable(grad.name())) {
            return Optional.empty();
        }
        SDVariable g = gradFunction.getVariable(grad.name());
        DifferentialFunction producer = gradFunction.getVariableOutputOp(grad.name());
        boolean lossTermOnly = producer != null && producer.opName().equals("multiply_bp")
                && producer.argNames().length == 3 && producer.argNames()[0].equals(out)
                && producer.argNames()[1].equals(SameDiffFunction.cotangentPlaceholder(i))
                && producer.outputVariablesNames()[0].equals(grad.name());
        // SameDiff knows no static shape for it; a cotangent of another shape than the output (broadcast by the
        // loss) would make the first VJP differ from the session's, and the graph would stay there
        return lossTermOnly && g.dataType() == cotangent.dataType() ? Optional.of(grad.name()) : Optional.empty();
    }

    /** The calls the compiled backward answers: cotangents for exactly the outputs the loss reads, in their shapes. */
    private boolean sameCotangents(Map<String, INDArray> values) {
        for (String out : outputNames()) {
            INDArray c = values.get(out);
            INDArray ours = cotangents.get(out);
            if ((c == null) != (ours == null) || c != null && !Arrays.equals(c.shape(), ours.shape())) {
                return false;
            }
        }
        return true;
    }

    /** Input arrays under their graph variables' names, as {@link CompiledGraph} looks them up. */
    private Map<String, INDArray> byVariable() {
        Map<String, INDArray> byVar = new HashMap<>();
        inputArrays.forEach((name, arr) -> byVar.put(session.inputVariable(name).name(), arr));
        return byVar;
    }

    /** The gradient function's variable for each input's gradient (null where it has none). */
    private List<String> gradientVariables(List<String> wrt) {
        List<String> names = new ArrayList<>();
        for (String input : wrt) {
            SDVariable v = session.inputVariable(input);
            SDVariable g = v == null ? null : v.getGradient();
            names.add(g == null ? null : g.name());
        }
        return names;
    }

    @Override
    public List<String> inputsChangedByForward(Map<String, INDArray> inputs) {
        return session.inputsChangedByForward(inputs);
    }

    @Override
    public List<String> attributesLeftAtDefault() {
        return session.attributesLeftAtDefault();
    }

    @Override
    public AffineInputs affineInputs() {
        return session.affineInputs();
    }

    /** What the session's graph says its outputs take (the compiled graphs hold the same, once each). */
    @Override
    public java.util.OptionalLong plannedOutputBytes() {
        return session.plannedOutputBytes();
    }

    /** The backward as a function of its own (order 2), evaluated the same way. */
    @Override
    public Differentiable backwardFunction(List<String> wrt, List<String> outputs) {
        SameDiffFunction backward = (SameDiffFunction) session.backwardFunction(wrt, outputs);
        CompiledFunction f = new CompiledFunction(backward,
                rebuild == null ? null : () -> rebuild.get().backwardFunction(wrt, outputs));
        f.takenOver = this; // the caller closes the backward function only
        return f;
    }

    /** A fresh build of the same function, sharing nothing with this one: for another thread. */
    @Override
    public Differentiable copy() {
        if (rebuild == null) {
            throw new UnsupportedOperationException("this function is copied with the graph it belongs to");
        }
        return rebuild.get();
    }

    /** How many ops the compiled backward for {@code wrt} runs per VJP, at most (tests ask). */
    java.util.OptionalInt backwardSteps(List<String> wrt) {
        Compiled c = backwards.get(wrt);
        return c == null || c.graph() == null ? java.util.OptionalInt.empty()
                : java.util.OptionalInt.of(c.graph().size());
    }

    /** Why some calls go to SameDiff's session; empty while every graph used so far is compiled. */
    Optional<String> fallback() {
        List<String> why = new ArrayList<>();
        if (failed != null) {
            why.add(failed);
        }
        if (forward != null && forward.fallback() != null) {
            why.add("forward: " + forward.fallback());
        }
        backwards.forEach((wrt, c) -> {
            if (c.fallback() != null) {
                why.add("backward " + wrt + ": " + c.fallback());
            }
        });
        return why.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", why));
    }

    /** Frees the compiled graphs' native contexts; a second close does nothing. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (forward != null && forward.graph() != null) {
            forward.graph().close();
        }
        backwards.values().forEach(c -> {
            if (c.graph() != null) {
                c.graph().close();
            }
        });
        session.close();
        if (takenOver != null) {
            takenOver.close();
        }
    }
}
