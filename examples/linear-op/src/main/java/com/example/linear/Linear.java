package com.example.linear;

import dev.gradcheck.spi.Operator;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A fully connected layer, y = x·Wᵀ + b, with its hand-written backward.
 *
 * <p>Shapes: x is [batch, in], W is [out, in], b is [out], y is [batch, out].
 */
public class Linear implements Operator {

    @Override
    public String name() {
        return "example_linear";
    }

    @Override
    public List<String> inputNames() {
        return List.of("x", "W", "b");
    }

    @Override
    public List<String> outputNames() {
        return List.of("y");
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> inputs, Map<String, Object> attrs) {
        INDArray x = inputs.get("x");
        INDArray w = inputs.get("W");
        INDArray b = inputs.get("b");
        INDArray y = x.mmul(w.transpose()).addiRowVector(b.reshape(1, b.length()));
        return Map.of("y", y);
    }

    @Override
    public Map<String, INDArray> backward(Map<String, INDArray> inputs, Map<String, INDArray> outputs,
                                          Map<String, INDArray> outputGradients, Map<String, Object> attrs) {
        INDArray x = inputs.get("x");
        INDArray w = inputs.get("W");
        INDArray b = inputs.get("b");
        INDArray gy = outputGradients.get("y");   // dL/dy, [batch, out]
        INDArray gx = gy.mmul(w);                 // [batch, out]·[out, in]
        INDArray gw = gy.transpose().mmul(x);     // [out, batch]·[batch, in]
        INDArray gb = biasGradient(gy).reshape(b.shape());
        return Map.of("x", gx, "W", gw, "b", gb);
    }

    /** Forward mode (optional): dy = dx·Wᵀ + x·dWᵀ + db. gradcheck compares it with the numerical J·u. */
    @Override
    public boolean hasJvp() {
        return true;
    }

    @Override
    public Map<String, INDArray> jvp(Map<String, INDArray> inputs, Map<String, INDArray> tangents,
                                     Map<String, Object> attrs) {
        INDArray x = inputs.get("x");
        INDArray w = inputs.get("W");
        INDArray db = tangents.get("b");
        INDArray dy = tangents.get("x").mmul(w.transpose())
                .addi(x.mmul(tangents.get("W").transpose()))
                .addiRowVector(db.reshape(1, db.length()));
        return Map.of("y", dy);
    }

    /** b is added to every row of the batch, so its gradient sums dL/dy over the batch. */
    protected INDArray biasGradient(INDArray gy) {
        return gy.sum(0);
    }
}
