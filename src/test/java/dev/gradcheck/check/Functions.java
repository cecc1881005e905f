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
    public static Differentiable squareAndDot() {
        return squareAndDot(UnaryOperator.identity());
    }

    /**
     * The same, with a backward that is differentiable again: its {@link Differentiable#backwardFunction} has the
     * double backward in closed form, passed through {@code corruptSecondOrder}.
     */
    public static Differentiable squareAndDot(UnaryOperator<INDArray> corruptSecondOrder) {
        return new Differentiable() {
            @Override
            public Differentiable backwardFunction(List<String> wrt, List<String> outputs) {
                return squareAndDotBackward(wrt, outputs, corruptSecondOrder);
            }

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

    /**
     * G(x, w, v0, v1) = (grad_x, grad_w) = (2·v0·x·w + v1·w, v0·x² + v1·x): the backward of {@link #squareAndDot()}.
     * Its own vjp with cotangents (cx, cw): d/dx = 2·cx·v0·w + cw·(2·v0·x + v1), d/dw = cx·(2·v0·x + v1),
     * d/dv0 = 2·cx·x·w + cw·x², d/dv1 = Σ cx·w + Σ cw·x. A cotangent input absent from {@code outputs} is zero.
     */
    private static Differentiable squareAndDotBackward(List<String> wrt, List<String> outputs,
                                                       UnaryOperator<INDArray> corrupt) {
        List<String> names = new java.util.ArrayList<>(List.of("x", "w"));
        outputs.forEach(o -> names.add(Differentiable.cotangentName(o)));
        return new Differentiable() {
            @Override
            public List<String> inputNames() {
                return names;
            }

            @Override
            public List<String> outputNames() {
                return wrt.stream().map(Differentiable::gradientName).toList();
            }

            private INDArray v0(Map<String, INDArray> in) {
                INDArray v = in.get("v_0");
                return v != null ? v : in.get("x").mul(0);
            }

            private double v1(Map<String, INDArray> in) {
                INDArray v = in.get("v_1");
                return v != null ? v.getDouble(0) : 0;
            }

            @Override
            public Map<String, INDArray> forward(Map<String, INDArray> in) {
                INDArray x = in.get("x");
                INDArray w = in.get("w");
                Map<String, INDArray> g = new HashMap<>();
                g.put("grad_x", v0(in).mul(x).muli(w).muli(2).addi(w.mul(v1(in))));
                g.put("grad_w", v0(in).mul(x).muli(x).addi(x.mul(v1(in))));
                g.keySet().retainAll(outputNames());
                return g;
            }

            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> of) {
                INDArray x = in.get("x");
                INDArray w = in.get("w");
                INDArray v0 = v0(in);
                double v1 = v1(in);
                INDArray cx = ct.getOrDefault("grad_x", x.mul(0));
                INDArray cw = ct.getOrDefault("grad_w", x.mul(0));
                INDArray slope = v0.mul(x).muli(2).addi(v1);
                Map<String, INDArray> g = new HashMap<>();
                g.put("x", corrupt.apply(cx.mul(v0).muli(w).muli(2).addi(cw.mul(slope))));
                g.put("w", cx.mul(slope));
                g.put("v_0", cx.mul(x).muli(w).muli(2).addi(cw.mul(x).muli(x)));
                g.put("v_1", cx.mul(w).sum().addi(cw.mul(x).sum()));
                g.keySet().retainAll(of);
                return g;
            }
        };
    }

    /** The same function with a forward that runs in place on x, as an in-place op would. */
    static Differentiable mutatingInput(Differentiable f) {
        return new Delegate(f) {
            @Override
            public Map<String, INDArray> forward(Map<String, INDArray> in) {
                Map<String, INDArray> y = f.forward(in);
                in.get("x").muli(1.001);
                return y;
            }
        };
    }

    /** The same function with a backward that scales every gradient by a little noise of its own. */
    static Differentiable noisyBackward(Differentiable f, double noise) {
        java.util.Random random = new java.util.Random(1);
        return withBackward(f, g -> g.mul(1 + noise * random.nextGaussian()));
    }

    /** The same function with its double backward (its backward function's vjp) scaled by {@code factor}. */
    static Differentiable secondOrderScaled(Differentiable f, double factor) {
        return new Delegate(f) {
            @Override
            public Differentiable backwardFunction(List<String> wrt, List<String> outputs) {
                return withBackward(f.backwardFunction(wrt, outputs), scaledBy(factor));
            }
        };
    }

    /** The same function without a second-order backward. */
    static Differentiable firstOrderOnly(Differentiable f) {
        return new Delegate(f) {
            @Override
            public Differentiable backwardFunction(List<String> wrt, List<String> outputs) {
                throw new UnsupportedOperationException("this test function has no second-order backward");
            }
        };
    }

    /** f(x) = the elements of x above 1, in order: its shape changes as elements cross 1. */
    public static Differentiable elementsAboveOne() {
        return new Differentiable() {
            @Override
            public List<String> inputNames() {
                return List.of("x");
            }

            @Override
            public List<String> outputNames() {
                return List.of("0");
            }

            @Override
            public Map<String, INDArray> forward(Map<String, INDArray> in) {
                double[] x = in.get("x").toDoubleVector();
                double[] above = java.util.Arrays.stream(x).filter(v -> v > 1).toArray();
                return Map.of("0", org.nd4j.linalg.factory.Nd4j.createFromArray(above));
            }

            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                double[] x = in.get("x").toDoubleVector();
                double[] c = ct.get("0").toDoubleVector();
                double[] g = new double[x.length];
                for (int i = 0, k = 0; i < x.length; i++) {
                    g[i] = x[i] > 1 ? c[k++] : 0;
                }
                return Map.of("x", org.nd4j.linalg.factory.Nd4j.createFromArray(g));
            }
        };
    }

    /** Where a backward of max(x, y) sends the gradient of a tie, x = y. */
    enum TieRule {
        /** All of it to x: a subgradient (PyTorch's max(dim) picks one index too). */
        TO_X,
        /** Half to each: a subgradient (PyTorch's maximum). */
        SPLIT,
        /** All of it to both: each entry alone is a subgradient, the whole is not (ND4J's maximum). */
        TO_BOTH
    }

    /** out = max(x, y) elementwise, with the backward sending the gradient of a tie where {@code ties} says. */
    static Differentiable maxOf(TieRule ties) {
        return new Differentiable() {
            @Override
            public List<String> inputNames() {
                return List.of("x", "y");
            }

            @Override
            public List<String> outputNames() {
                return List.of("0");
            }

            @Override
            public Map<String, INDArray> forward(Map<String, INDArray> in) {
                return Map.of("0", org.nd4j.linalg.ops.transforms.Transforms.max(in.get("x"), in.get("y"), true));
            }

            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                double[] x = in.get("x").toDoubleVector();
                double[] y = in.get("y").toDoubleVector();
                double[] c = ct.get("0").toDoubleVector();
                double[] gx = new double[x.length];
                double[] gy = new double[x.length];
                for (int i = 0; i < x.length; i++) {
                    double share = x[i] > y[i] ? 1 : x[i] < y[i] ? 0 : switch (ties) {
                        case TO_X, TO_BOTH -> 1;
                        case SPLIT -> 0.5;
                    };
                    gx[i] = c[i] * share;
                    gy[i] = c[i] * (x[i] == y[i] && ties == TieRule.TO_BOTH ? 1 : 1 - share);
                }
                Map<String, INDArray> g = new HashMap<>();
                g.put("x", org.nd4j.linalg.factory.Nd4j.createFromArray(gx).reshape(in.get("x").shape()));
                g.put("y", org.nd4j.linalg.factory.Nd4j.createFromArray(gy).reshape(in.get("y").shape()));
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
                Map<String, INDArray> g = new HashMap<>(f.vjp(in, ct, wrt));
                g.replaceAll((k, v) -> corrupt.apply(v));
                return g;
            }
        };
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
        public Differentiable backwardFunction(List<String> wrt, List<String> outputs) {
            return f.backwardFunction(wrt, outputs);
        }

        @Override
        public void close() {
            f.close();
        }
    }
}
