package dev.gradcheck.api;

import dev.gradcheck.spi.Operator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * y = scale · x ⊙ w, with a correct backward or one whose w-gradient is off by 1%; optionally with a forward-mode
 * JVP, correct or one that forgets the w tangent.
 */
final class Mul implements Operator {

    enum Backward { CORRECT, W_GRADIENT_ONE_PERCENT_HIGH, NOT_WRITTEN }

    enum Jvp { NONE, CORRECT, WITHOUT_W_TERM }

    private final Backward backward;
    private final Jvp jvp;

    private Mul(Backward backward, Jvp jvp) {
        this.backward = backward;
        this.jvp = jvp;
    }

    static Mul correct() {
        return new Mul(Backward.CORRECT, Jvp.NONE);
    }

    static Mul wrongWeightGradient() {
        return new Mul(Backward.W_GRADIENT_ONE_PERCENT_HIGH, Jvp.NONE);
    }

    static Mul withJvp(Jvp jvp) {
        return new Mul(Backward.CORRECT, jvp);
    }

    static Mul throwingInBackward() {
        return new Mul(Backward.NOT_WRITTEN, Jvp.NONE);
    }

    @Override
    public boolean hasJvp() {
        return jvp != Jvp.NONE;
    }

    @Override
    public Map<String, INDArray> jvp(Map<String, INDArray> in, Map<String, INDArray> t, Map<String, Object> attrs) {
        INDArray dy = t.get("x").mul(in.get("w"));
        if (jvp == Jvp.CORRECT) {
            dy.addi(in.get("x").mul(t.get("w")));
        }
        return Map.of("y", dy.muli(scale(attrs)));
    }

    @Override
    public String name() {
        return "mul";
    }

    @Override
    public List<String> inputNames() {
        return List.of("x", "w");
    }

    @Override
    public List<String> outputNames() {
        return List.of("y");
    }

    @Override
    public List<String> attributeNames() {
        return List.of("scale");
    }

    private static double scale(Map<String, Object> attrs) {
        return ((Number) attrs.getOrDefault("scale", 1L)).doubleValue();
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> in, Map<String, Object> attrs) {
        return Map.of("y", in.get("x").mul(in.get("w")).muli(scale(attrs)));
    }

    @Override
    public Map<String, INDArray> backward(Map<String, INDArray> in, Map<String, INDArray> out,
                                          Map<String, INDArray> grads, Map<String, Object> attrs) {
        if (backward == Backward.NOT_WRITTEN) {
            throw new UnsupportedOperationException("backward not written yet");
        }
        INDArray gy = grads.get("y").mul(scale(attrs));
        Map<String, INDArray> g = new HashMap<>();
        g.put("x", gy.mul(in.get("w")));
        g.put("w", gy.mul(in.get("x")).muli(backward == Backward.W_GRADIENT_ONE_PERCENT_HIGH ? 1.01 : 1.0));
        return g;
    }
}
