package dev.gradcheck.api;

import dev.gradcheck.spi.Operator;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * w = z² on complex numbers as (re, im) pairs: w.re = a² − b², w.im = 2ab for z = a + ib. Its backward is
 * grad_z = grad_w · conj(dw/dz) = grad_w · conj(2z) in PyTorch's convention, or one of two classic slips.
 */
final class ComplexSquare implements Operator {

    enum Backward { CORRECT, WITHOUT_CONJUGATE, CONJUGATE_WIRTINGER_WITHOUT_TWO }

    private final Backward backward;

    ComplexSquare(Backward backward) {
        this.backward = backward;
    }

    @Override
    public String name() {
        return "complex_square";
    }

    @Override
    public boolean complex() {
        return true;
    }

    @Override
    public List<String> inputNames() {
        return List.of("z.re", "z.im");
    }

    @Override
    public List<String> outputNames() {
        return List.of("w.re", "w.im");
    }

    @Override
    public Map<String, INDArray> forward(Map<String, INDArray> in, Map<String, Object> attrs) {
        INDArray a = in.get("z.re");
        INDArray b = in.get("z.im");
        return Map.of("w.re", a.mul(a).subi(b.mul(b)), "w.im", a.mul(b).muli(2));
    }

    @Override
    public Map<String, INDArray> backward(Map<String, INDArray> in, Map<String, INDArray> out,
                                          Map<String, INDArray> grads, Map<String, Object> attrs) {
        INDArray a = in.get("z.re");
        INDArray b = in.get("z.im");
        INDArray gRe = grads.get("w.re");
        INDArray gIm = grads.get("w.im");
        // (gRe + i·gIm)·(2a ∓ 2ib): with the conjugate, the minus sign
        double sign = backward == Backward.WITHOUT_CONJUGATE ? -1 : 1;
        double scale = backward == Backward.CONJUGATE_WIRTINGER_WITHOUT_TWO ? 1 : 2;
        INDArray re = gRe.mul(a).addi(gIm.mul(b).muli(sign)).muli(scale);
        INDArray im = gIm.mul(a).subi(gRe.mul(b).muli(sign)).muli(scale);
        return Map.of("z.re", re, "z.im", im);
    }
}
