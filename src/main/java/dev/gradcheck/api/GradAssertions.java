package dev.gradcheck.api;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.report.DetailLines;
import dev.gradcheck.spi.Operator;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Test assertions over {@link GradCheck}. They throw a plain {@link AssertionError}, which JUnit 5 (and any other
 * test framework) reports as a failure, so gradcheck needs no test framework of its own. The message names each
 * failing Jacobian block and its worst element: the output and input multi-indexes, analytic against numerical.
 */
public final class GradAssertions {

    private GradAssertions() {}

    /** Passes when every checked gradient matches; fails on a mismatch, an operator error or an invalid setup. */
    public static void assertGradientsMatch(CheckResult result) {
        if (result.status() == Status.PASSED) {
            return;
        }
        StringBuilder message = new StringBuilder("gradients of ").append(result.name());
        message.append(switch (result.status()) {
            case ERROR -> " could not be checked: the operator failed";
            case INVALID -> " could not be checked as set up";
            default -> " do not match (delta " + result.delta() + ")";
        });
        DetailLines.of(result).forEach(line -> message.append(System.lineSeparator()).append("  ").append(line));
        throw new AssertionError(message.toString());
    }

    /** Runs the check, then asserts as {@link #assertGradientsMatch(CheckResult)}. */
    public static void assertGradientsMatch(GradCheck check) {
        assertGradientsMatch(check.check());
    }

    /** Checks every floating input of {@code operator} at {@code inputs}, with the per-dtype defaults. */
    public static void assertGradientsMatch(Operator operator, Map<String, INDArray> inputs) {
        GradCheck check = GradCheck.of(operator);
        inputs.forEach(check::input);
        assertGradientsMatch(check);
    }
}
