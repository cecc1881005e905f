package dev.gradcheck.bench.wrong;

import dev.gradcheck.spi.Operator;
import java.util.List;

/** An op of one input x and one output y whose backward a spec's {@code bug} attribute makes wrong on purpose. */
abstract class WrongUnary implements Operator {

    @Override
    public List<String> inputNames() {
        return List.of("x");
    }

    @Override
    public List<String> outputNames() {
        return List.of("y");
    }

    @Override
    public List<String> attributeNames() {
        return List.of("bug");
    }
}
