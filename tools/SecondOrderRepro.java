/*
 * SecondOrderRepro -- which ND4J 1.0.0-M2.1 ops SameDiff can differentiate twice, and which backward kernels
 * have no bfloat16 path on CPU (docs/nd4j-findings.md, "Second order" and "bfloat16 backward kernels"). Uses
 * ND4J's public API only, no gradcheck code.
 *
 * Second order: for out = op(x), it builds the backward graph from the op's own doDiff fed a cotangent variable
 * v, then asks SameDiff for the gradient of sum(w * grad_x) with respect to x and v. SameDiff's usual route
 * (createGradFunction, then differentiating the "grad" function) fails for every op, because the loss
 * sum(out * v) is seeded through mul_bp, which has no doDiff; the doDiff route isolates the op itself.
 *
 * Run:  java -cp 'target/lib/*' tools/SecondOrderRepro.java
 */
import java.util.*;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.autodiff.samediff.*;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

public class SecondOrderRepro {

    interface Op { SDVariable f(SameDiff sd, SDVariable x); }

    static void secondOrder(String label, Op op) {
        try {
            SameDiff sd = SameDiff.create();
            Nd4j.getRandom().setSeed(1);
            SDVariable x = sd.var("x", Nd4j.rand(DataType.DOUBLE, 3, 3).addi(0.5));
            SDVariable out = op.f(sd, x);
            SDVariable v = sd.var("v", Nd4j.rand(DataType.DOUBLE, out.eval().shape()));
            DifferentialFunction df = sd.getVariableOutputOp(out.name());
            List<SDVariable> grads = df.doDiff(List.of(v));
            SDVariable w = sd.var("w", Nd4j.rand(DataType.DOUBLE, 3, 3));
            sd.setLossVariables(grads.get(0).mul(w).sum());
            sd.calculateGradients(Map.of(), "x", "v");
            System.out.println("order 2 " + label + ": differentiable");
        } catch (Throwable t) {
            System.out.println("order 2 " + label + ": FAILS " + t);
        }
    }

    static void bfloat16Backward(String label, Op op) {
        try {
            SameDiff sd = SameDiff.create();
            SDVariable x = sd.var("x", Nd4j.rand(DataType.DOUBLE, 3, 4).castTo(DataType.BFLOAT16));
            SDVariable out = op.f(sd, x);
            sd.setLossVariables(out.sum());
            sd.calculateGradients(Map.of(), "x");
            System.out.println("bfloat16 backward " + label + ": runs");
        } catch (Throwable t) {
            System.out.println("bfloat16 backward " + label + ": FAILS " + t);
        }
    }

    public static void main(String[] args) {
        Map<String, Op> ops = new LinkedHashMap<>();
        ops.put("exp", (sd, x) -> sd.math().exp(x));
        ops.put("sin", (sd, x) -> sd.math().sin(x));
        ops.put("log", (sd, x) -> sd.math().log(x));
        ops.put("sqrt", (sd, x) -> sd.math().sqrt(x));
        ops.put("softplus", (sd, x) -> sd.nn().softplus(x));
        ops.put("tanh", (sd, x) -> sd.math().tanh(x));
        ops.put("sigmoid", (sd, x) -> sd.nn().sigmoid(x));
        ops.put("square", (sd, x) -> sd.math().square(x));
        ops.put("relu", (sd, x) -> sd.nn().relu(x, 0));
        ops.put("softmax", (sd, x) -> sd.nn().softmax(x, 1));
        ops.put("matmul", (sd, x) -> x.mmul(x));
        ops.put("reduce_sum", (sd, x) -> x.sum(1));
        ops.forEach(SecondOrderRepro::secondOrder);
        for (String name : List.of("tanh", "sigmoid", "exp", "softplus", "sin")) {
            bfloat16Backward(name, ops.get(name));
        }
    }
}
