package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * reverse over several dimensions: the list goes in as integer arguments, while Reverse reports a scalar
 * 'dimensions' property (its first dimension) that must not be overwritten with the list.
 */
class ReverseDimensionsTest {

    private final Nd4jOpBuilder builder = new Nd4jOpBuilder(OpCatalog.nd4j());

    private static final String SPEC = """
            op: reverse
            attrs: {dimensions: [0, 2]}
            inputs:
              x: {shape: [2, 3, 4]}
            """;

    @Test
    void everyListedDimensionIsReversed() throws Exception {
        INDArray x = Nd4j.arange(24).castTo(DataType.DOUBLE).reshape(2, 3, 4);
        try (Differentiable f = builder.build(Specs.parse(SPEC), Map.of("x", x))) {
            INDArray y = f.forward(Map.of("x", x)).get("0");
            for (int i = 0; i < 2; i++) {
                for (int j = 0; j < 3; j++) {
                    for (int k = 0; k < 4; k++) {
                        assertEquals(x.getDouble(1 - i, j, 3 - k), y.getDouble(i, j, k), 0.0,
                                "out[" + i + "," + j + "," + k + "]");
                    }
                }
            }
        }
    }

    @Test
    void itsGradientChecks() {
        CheckResult r = new GradientChecker(builder::build, "cpu").check(Specs.parse(SPEC));
        assertEquals(Status.PASSED, r.status(), r.toString());
    }
}
