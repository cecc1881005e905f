package dev.gradcheck.check;

import dev.gradcheck.op.GraphFunction;
import dev.gradcheck.spec.ErrorClip;
import dev.gradcheck.spec.GraphNode;
import dev.gradcheck.spec.GraphSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * gradient from downstream. The clipping is done here, on doubles, independently of op/'s backward.
 */
final class SplitNumericalJacobian {

    private SplitNumericalJacobian() {}

    static boolean applies(Object f) {
        return f instanceof GraphFunction g && g.graph().hasClips();
    }

    static Map<String, Jacobian> compute(GraphFunction f, Map<String, INDArray> inputs, String wrt,
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

        // local Jacobians: d terminal / d v, for v each clipped variable and the input
        Map<String, Map<String, double[][]>> local = new HashMap<>();
        for (GraphNode n : clipped) {
            String v = n.out().value();
            INDArray x = base.get(v).dup();
            Map<String, INDArray> heldHere = new HashMap<>(held);
            heldHere.put(v, x);
            local.put(v, differences(x, () -> f.valuesHolding(inputs, heldHere), terminals, delta, evaluations));
        }
        INDArray x = inputs.get(wrt);
        local.put(wrt, differences(x, () -> f.valuesHolding(inputs, held), terminals, delta, evaluations));

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
    private static double[] pullBack(Map<String, double[][]> jacobians, Map<String, double[]> outgoing, long n) {
        double[] g = new double[Math.toIntExact(n)];
        outgoing.forEach((t, cot) -> {
            double[][] jt = jacobians.getOrDefault(t, new double[0][]); // none when x is empty
            for (int r = 0; r < jt.length; r++) {
                for (int i = 0; i < g.length; i++) {
                    g[i] += jt[r][i] * cot[r];
                }
            }
        });
        return g;
    }

    /**
     * Central differences of every terminal with respect to {@code x}, which is perturbed in place and restored.
     * @return terminal to its Jacobian rows × x's elements
     */
    private static Map<String, double[][]> differences(INDArray x, java.util.function.Supplier<Map<String, INDArray>> eval,
                                                       List<String> terminals, double delta, Counter evaluations) {
        int n = Math.toIntExact(x.length());
        Map<String, double[][]> result = new HashMap<>();
        for (int i = 0; i < n; i++) {
            double xi = x.getDouble(i);
            x.putScalar(i, xi + delta);
            Map<String, INDArray> plus = eval.get();
            x.putScalar(i, xi - delta);
            Map<String, INDArray> minus = eval.get();
            x.putScalar(i, xi);
            evaluations.add(2);
            for (String t : terminals) {
                double[] yp = Flat.values(plus.get(t));
                double[] ym = Flat.values(minus.get(t));
                double[][] rows = result.computeIfAbsent(t, k -> new double[yp.length][n]);
                for (int r = 0; r < yp.length; r++) {
                    rows[r][i] = (yp[r] - ym[r]) / (2 * delta);
                }
            }
        }
        return result;
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
