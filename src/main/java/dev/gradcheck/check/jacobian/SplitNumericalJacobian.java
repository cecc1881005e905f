package dev.gradcheck.check.jacobian;

import dev.gradcheck.check.numeric.Counter;
import dev.gradcheck.check.numeric.Jacobian;
import dev.gradcheck.check.numeric.NumericalDerivative;
import dev.gradcheck.check.numeric.Step;
import dev.gradcheck.op.ClippedGraph;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.result.Stencil;
import dev.gradcheck.spec.ErrorClip;
import dev.gradcheck.spec.GraphNode;
import dev.gradcheck.spec.GraphSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The numerical reference for a graph with error clips, which central differences of the whole graph cannot give
 * (a clip changes the backward, not the forward). The graph is split at its clipped variables and only forward
 * evaluations are used:
 *
 * <ul>
 *   <li>the "terminals" are the clipped node outputs and the output (if not clipped itself);</li>
 *   <li>with every clipped variable held at its forward value downstream, central differences give
 *       d terminal / d v for each clipped variable v and the checked input: the local parts of the graph between
 *       clips;</li>
 *   <li>for each one-hot cotangent e_j of the output, clipped variables are visited from the output backwards:
 *       g_v = (e_j if v is the output) + Σ_t (d t / d v)ᵀ G_t over the terminals t already visited, and
 *       G_v = clip(g_v); the unclipped output has G = e_j;</li>
 *   <li>the input's gradient is Σ_t (d t / d x)ᵀ G_t, clipped if the input has a clip.</li>
 * </ul>
 *
 * That is the numerical vector-Jacobian product of each part upstream of a clip, taken with the clipped numerical
 * gradient from downstream. The clipping is done here, on doubles, independently of op/'s backward. Clipped
 * graphs are always checked in full with central differences and an absolute step δ (clipped intermediates are
 * perturbed too): fast mode, sampling and the other stencils need a numerical derivative of the whole graph's
 * forward, which a clip makes meaningless.
 */
public final class SplitNumericalJacobian {

    private SplitNumericalJacobian() {}

    public static Map<String, Jacobian> compute(ClippedGraph f, Map<String, INDArray> inputs, String wrt,
                                         double delta, Counter evaluations) {
        GraphSpec graph = f.graph();
        String output = graph.output();
        Map<String, INDArray> base = f.values(inputs);
        evaluations.add(1);
        List<GraphNode> clipped = graph.nodes().stream().filter(n -> n.errorClip() != null).toList();
        Map<String, INDArray> held = new HashMap<>();
        clipped.forEach(n -> held.put(n.out().value(), base.get(n.out().value())));
        List<String> terminals = new ArrayList<>(held.keySet());
        if (!held.containsKey(output)) {
            terminals.add(output);
        }

        // local Jacobians d terminal / d v, for v each clipped variable and the input, by central differences
        Map<String, INDArray> extended = new HashMap<>(inputs);
        held.forEach((v, value) -> extended.put(v, value.dup()));
        Differentiable split = new HeldAtClips(f, held.keySet());
        NumericalDerivative d = new NumericalDerivative(split, extended, split.forward(extended), terminals,
                new NumericalDerivative.Scheme(Stencil.CENTRAL, new Step(delta, false)), evaluations);
        Map<String, long[]> shapes = new HashMap<>();
        terminals.forEach(t -> shapes.put(t, base.get(t).shape()));
        Map<String, Map<String, Jacobian>> local = new HashMap<>();
        for (GraphNode n : clipped) {
            String v = n.out().value();
            local.put(v, NumericalJacobian.compute(d, v, terminals, shapes, null));
        }
        local.put(wrt, NumericalJacobian.compute(d, wrt, terminals, shapes, null));
        INDArray x = inputs.get(wrt);

        int m = Math.toIntExact(base.get(output).length());
        double[][] rows = new double[m][];
        for (int j = 0; j < m; j++) {
            Map<String, double[]> outgoing = new HashMap<>();
            double[] oneHot = new double[m];
            oneHot[j] = 1;
            if (!held.containsKey(output)) {
                outgoing.put(output, oneHot);
            }
            for (int k = clipped.size() - 1; k >= 0; k--) {
                GraphNode n = clipped.get(k);
                String v = n.out().value();
                double[] g = pullBack(local.get(v), outgoing, base.get(v).length());
                if (v.equals(output)) {
                    add(g, oneHot);
                }
                outgoing.put(v, clip(g, n.errorClip()));
            }
            double[] g = pullBack(local.get(wrt), outgoing, x.length());
            ErrorClip inputClip = graph.inputClips().get(wrt);
            rows[j] = inputClip == null ? g : clip(g, inputClip);
        }
        return Map.of(output, new Jacobian(base.get(output).shape(), x.shape(), rows));
    }

    /** Σ_t J_tᵀ G_t over the terminals whose outgoing gradient is known. */
    private static double[] pullBack(Map<String, Jacobian> jacobians, Map<String, double[]> outgoing, long n) {
        double[] g = new double[Math.toIntExact(n)];
        outgoing.forEach((t, cot) -> {
            double[][] jt = jacobians.get(t).values();
            for (int r = 0; r < jt.length; r++) {
                for (int i = 0; i < g.length; i++) {
                    g[i] += jt[r][i] * cot[r];
                }
            }
        });
        return g;
    }

    /**
     * The graph with its clipped variables held: each held value is an extra input (so it can be perturbed like
     * one), and the returned values include what each clipped node computed.
     */
    private static final class HeldAtClips implements Differentiable {
        private final ClippedGraph graph;
        private final Set<String> held;

        HeldAtClips(ClippedGraph graph, Set<String> held) {
            this.graph = graph;
            this.held = held;
        }

        @Override
        public List<String> inputNames() {
            List<String> names = new ArrayList<>(graph.inputNames());
            names.addAll(held);
            return names;
        }

        @Override
        public List<String> outputNames() {
            return graph.graph().nodes().stream().map(n -> n.out().value()).toList();
        }

        @Override
        public Map<String, INDArray> forward(Map<String, INDArray> values) {
            Map<String, INDArray> inputs = new HashMap<>(values);
            Map<String, INDArray> heldValues = new HashMap<>();
            held.forEach(v -> heldValues.put(v, inputs.remove(v)));
            return graph.valuesHolding(inputs, heldValues);
        }

        @Override
        public Map<String, INDArray> vjp(Map<String, INDArray> inputs, Map<String, INDArray> cotangents,
                                         List<String> wrt) {
            throw new UnsupportedOperationException("the split graph is only evaluated forward");
        }
    }

    private static void add(double[] g, double[] more) {
        for (int i = 0; i < g.length; i++) {
            g[i] += more[i];
        }
    }

    private static double[] clip(double[] g, ErrorClip clip) {
        double[] out = new double[g.length];
        for (int i = 0; i < g.length; i++) {
            out[i] = Math.max(clip.lower(), Math.min(clip.upper(), g[i]));
        }
        return out;
    }
}
