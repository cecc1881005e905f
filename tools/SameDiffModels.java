import java.io.File;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/** Writes the SameDiff models specs/samediff/ checks (docs/dl4j.md, "A saved SameDiff model"): small FlatBuffers
 * files made with SameDiff.save. Run: java -cp "$(cat classpath)" tools/SameDiffModels.java specs/samediff */
public class SameDiffModels {
  public static void main(String[] a) throws Exception {
    Nd4j.getRandom().setSeed(11);
    // a two-layer perceptron: x [-1, 3] -> matmul + bias -> tanh -> matmul + bias -> softmax
    SameDiff mlp = SameDiff.create();
    SDVariable x = mlp.placeHolder("x", DataType.DOUBLE, -1, 3);
    SDVariable w1 = mlp.var("w1", Nd4j.randn(DataType.DOUBLE, 3, 5).muli(0.5));
    SDVariable b1 = mlp.var("b1", Nd4j.randn(DataType.DOUBLE, 1, 5).muli(0.1));
    SDVariable w2 = mlp.var("w2", Nd4j.randn(DataType.DOUBLE, 5, 2).muli(0.5));
    SDVariable b2 = mlp.var("b2", Nd4j.randn(DataType.DOUBLE, 1, 2).muli(0.1));
    SDVariable h = mlp.nn().tanh("h", mlp.math().add("z1", mlp.mmul("m1", x, w1), b1));
    mlp.nn().softmax("y", mlp.math().add("z2", mlp.mmul("m2", h, w2), b2), 1);
    mlp.save(new File(a[0], "mlp.fb"), false);
    // a model holding ND4J's wrong cumprod backward (docs/nd4j-findings.md): x -> tanh -> cumprod(axis 0) -> * v
    SameDiff cp = SameDiff.create();
    SDVariable t = cp.nn().tanh("t", cp.placeHolder("x", DataType.DOUBLE, 3, 2));
    SDVariable v = cp.var("v", Nd4j.linspace(DataType.DOUBLE, 0.5, 1.5, 6).reshape(3, 2));
    cp.math().mul("y", cp.cumprod("c", t, false, false, 0), v);
    cp.save(new File(a[0], "cumprod.fb"), false);
    // a trainable weight before ND4J's wrong cumprod and a bias after it: x -> matmul w -> cumprod(axis 0) -> + b
    SameDiff cw = SameDiff.create();
    SDVariable m = cw.mmul("m", cw.placeHolder("x", DataType.DOUBLE, 3, 2),
        cw.var("w", Nd4j.linspace(DataType.DOUBLE, -0.6, 0.8, 4).reshape(2, 2)));
    cw.math().add("y", cw.cumprod("c", m, false, false, 0), cw.var("b", Nd4j.linspace(DataType.DOUBLE, 0.1, 0.2, 2)
        .reshape(1, 2)));
    cw.save(new File(a[0], "cumprod-weights.fb"), false);
  }
}
