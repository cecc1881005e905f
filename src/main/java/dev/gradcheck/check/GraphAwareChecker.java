package dev.gradcheck.check;

import dev.gradcheck.check.numeric.Meter;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import org.slf4j.LoggerFactory;

/**
 * The checker the backends use: {@link GradientChecker}, and when a graph spec's gradient mismatches, every node
 * checked on its own so the report can name the op whose backward is wrong.
 */
public final class GraphAwareChecker {

    private final GradientChecker checker;
    private final NodeLocator locator;

    public GraphAwareChecker(FunctionFactory factory, String backend, MemoryBudget budget) {
        this.checker = new GradientChecker(factory, backend, budget);
        this.locator = new NodeLocator(factory, checker);
    }

    /** {@link GradientChecker#validate}: a check's start, on the same draw, without the checking. */
    public void validate(OpSpec spec) throws InvalidSpecException {
        checker.validate(spec);
    }

    public CheckResult check(OpSpec spec) {
        return check(spec, JacobianCapture.NONE);
    }

    /** @param capture which compared blocks of the spec itself hand back their matrices (a node's never do) */
    public CheckResult check(OpSpec spec, JacobianCapture capture) {
        CheckResult result = checker.check(spec, capture);
        boolean mismatch = result.status() == Status.FAILED || result.status() == Status.EXPECTED_FAIL;
        if (spec.graph() == null || !mismatch) {
            return result;
        }
        Meter start = Meter.timing();
        try {
            return result.withNodes(locator.locate(spec), result.seconds() + start.seconds());
        } catch (Exception e) { // locating is a help: its failure must not hide the graph's own result
            LoggerFactory.getLogger(GraphAwareChecker.class).warn("{}: could not check the graph's nodes on their"
                    + " own: {}", spec.name(), ErrorText.of(e));
            return result;
        }
    }
}
