package dev.gradcheck.check;

import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.CheckResult;
import java.util.function.UnaryOperator;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Checks of real ND4J ops in process, as they are and with a corrupted backward, for the tests of check/. */
final class RealOps {

    static final Nd4jOpBuilder BUILDER = new Nd4jOpBuilder(OpCatalog.nd4j());

    private RealOps() {}

    /** The spec checked against ND4J's own backward. */
    static CheckResult check(String yaml) {
        return new GradientChecker(BUILDER::build, "cpu").check(Specs.parse(yaml));
    }

    /** The spec checked against ND4J's backward with every gradient passed through {@code corrupt}. */
    static CheckResult checkCorrupted(String yaml, UnaryOperator<INDArray> corrupt) {
        FunctionFactory wrong = (spec, inputs) -> Functions.withBackward(BUILDER.build(spec, inputs), corrupt);
        return new GradientChecker(wrong, "cpu").check(Specs.parse(yaml));
    }
}
