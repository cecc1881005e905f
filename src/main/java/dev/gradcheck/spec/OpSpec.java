package dev.gradcheck.spec;

import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Mode;
import java.util.List;
import java.util.Map;

/**
 * One validated op-spec (one YAML document). Values the spec left out are already filled with their defaults,
 * except those that depend on the op (which outputs exist), resolved in op/.
 *
 * @param name      spec name; defaults to the file name (with {@code #k} for the k-th of several documents)
 * @param pos       where the document starts
 * @param op        the operator name, as written
 * @param attrs     named op attributes; values are Long, Double, Boolean, String or List of those
 * @param inputs    inputs in the order written (the op's argument order)
 * @param outputs   the outputs to check, by name or index as written; empty means every floating output
 * @param check     inputs to check; already defaulted to every floating input not in noGrad
 * @param noGrad    inputs never checked
 * @param delta     finite-difference step; null means the per-dtype default
 * @param tolerance comparison rule; null means the per-dtype default
 * @param mode      full Jacobian or the fast projection vᵀJu
 * @param order     1, or 2 to check the backward's own gradient too
 * @param options   the finer numerical settings: stencil, sampling, nondeterminism tolerance, resampling
 * @param backends  the engines the spec runs on, in order; the first is the reference for the others
 * @param graph     for a graph spec ({@code graph:} instead of {@code op:}) its nodes, and op is "graph"; else null
 * @param timeoutSeconds how long the check may run in a worker; null means the command line's or the default
 * @param layer     for a layer spec ({@code layer:} instead of {@code op:}) the DL4J layer, and op is its type; else
 *                  null
 * @param network   for a network spec ({@code network:} instead of {@code op:}) the saved DL4J network's path as
 *                  written (relative to the spec's file), and op is "network"; else null
 */
public record OpSpec(
        String name,
        SourcePos pos,
        Located<String> op,
        Map<String, Located<Object>> attrs,
        List<InputSpec> inputs,
        List<Located<String>> outputs,
        List<String> check,
        List<String> noGrad,
        Double delta,
        Tolerance tolerance,
        Mode mode,
        int order,
        CheckOptions options,
        List<Engine> backends,
        long seed,
        Expectation expect,
        GraphSpec graph,
        Double timeoutSeconds,
        LayerSpec layer,
        Located<String> network) {

    /** This spec with the command line's choices in place of its own, where the command line made one. */
    public OpSpec with(Overrides o) {
        return new OpSpec(name, pos, op, attrs, inputs, outputs, check, noGrad, delta, tolerance,
                o.mode() != null ? o.mode() : mode, o.order() != null ? o.order() : order, options.with(o),
                backends, seed, expect, graph, timeoutSeconds, layer, network);
    }

    /** This spec with other checking settings. */
    public OpSpec withOptions(CheckOptions o) {
        return new OpSpec(name, pos, op, attrs, inputs, outputs, check, noGrad, delta, tolerance, mode, order, o,
                backends, seed, expect, graph, timeoutSeconds, layer, network);
    }

    /**
     * A one-op spec for one node of this graph spec, over the given inputs, with this spec's checking settings;
     * used to check a node on its own. Its check list is every floating input.
     */
    public OpSpec nodeSpec(GraphNode node, List<InputSpec> nodeInputs) {
        List<String> floating = nodeInputs.stream().filter(i -> i.dtype().isFloating()).map(InputSpec::name)
                .toList();
        return new OpSpec(name + "/" + node.out().value(), node.pos(), node.op(), node.attrs(), nodeInputs,
                List.of(new Located<>("0", node.out().pos())), floating, List.of(), delta, tolerance, mode, order,
                options, backends, seed, Expectation.PASS, null, timeoutSeconds, null, null);
    }

    /** This layer spec once its layer's parameters are inputs (op/'s LayerSpecs), checked or not. */
    public OpSpec withLayerParameters(List<InputSpec> newInputs, List<String> newCheck, List<String> newNoGrad,
                                      List<String> parameters) {
        return new OpSpec(name, pos, op, attrs, newInputs, outputs, newCheck, newNoGrad, delta, tolerance, mode, order,
                options, backends, seed, expect, graph, timeoutSeconds, layer.withParameters(parameters),
                network);
    }

    public InputSpec input(String name) {
        return inputs.stream().filter(i -> i.name().equals(name)).findFirst().orElseThrow();
    }
}
