package dev.gradcheck.check;

import dev.gradcheck.op.Differentiable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Test functions with Jacobians known in closed form, and a way to corrupt any backward. */
public final class Functions {

    private Functions() {}

    /**
     * y0 = x ⊙ x ⊙ w (elementwise), y1 = sum(x ⊙ w): J(y0, x) = diag(2 x w), J(y0, w) = diag(x²),
     * J(y1, x) = wᵀ, J(y1, w) = xᵀ.
     */
    static Differentiable squareAndDot() {
        return new Differentiable() {
            @Override
            public List<String> inputNames() {
                return List.of("x", "w");
            }

            @Override
            public List<String> outputNames() {
                return List.of("0", "1");
            }

            @Override
            public Map<String, INDArray> forward(Map<String, INDArray> in) {
                INDArray x = in.get("x");
                INDArray w = in.get("w");
                return Map.of("0", x.mul(x).muli(w), "1", x.mul(w).sum());
            }

            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                INDArray x = in.get("x");
                INDArray w = in.get("w");
                INDArray c0 = ct.get("0");
                double c1 = ct.get("1").getDouble(0);
                Map<String, INDArray> g = new HashMap<>();
                g.put("x", c0.mul(x).muli(w).muli(2).addi(w.mul(c1)));
                g.put("w", c0.mul(x).muli(x).addi(x.mul(c1)));
                g.keySet().retainAll(wrt);
                return g;
            }
        };
    }

    /** The same function with every gradient passed through {@code corrupt}. */
    public static Differentiable withBackward(Differentiable f, UnaryOperator<INDArray> corrupt) {
        return new Delegate(f) {
            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                Map<String, INDArray> g = new HashMap<>(super.vjp(in, ct, wrt));
                g.replaceAll((k, v) -> corrupt.apply(v));
                return g;
            }
        };
    }

    /** Forwards everything to another function; tests override the part they corrupt. */
    public static class Delegate implements Differentiable {
        private final Differentiable f;

        public Delegate(Differentiable f) {
            this.f = f;
        }

        @Override
        public List<String> inputNames() {
            return f.inputNames();
        }

        @Override
        public List<String> outputNames() {
            return f.outputNames();
        }

        @Override
        public Map<String, INDArray> forward(Map<String, INDArray> in) {
            return f.forward(in);
        }

        @Override
        public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
            return f.vjp(in, ct, wrt);
        }

        @Override
        public void close() {
            f.close();
        }
    }

    public static UnaryOperator<INDArray> scaledBy(double factor) {
        return g -> g.mul(factor);
    }

    /** Shifts the flat gradient by one element: right values, wrong places. */
    static UnaryOperator<INDArray> rolled() {
        return g -> {
            INDArray flat = g.dup('c').reshape(g.length());
            INDArray out = flat.dup();
            for (long i = 0; i < flat.length(); i++) {
                out.putScalar((i + 1) % flat.length(), flat.getDouble(i));
            }
            return out.reshape(g.shape());
        };
    }

    static UnaryOperator<INDArray> zeroed() {
        return g -> g.mul(0);
    }
}
