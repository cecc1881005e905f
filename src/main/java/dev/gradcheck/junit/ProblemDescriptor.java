package dev.gradcheck.junit;

import dev.gradcheck.report.SafeText;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;

/**
 * A selector that found no spec file, a setting that cannot be used, a class path the engine cannot run on: a test
 * that fails with what was wrong, so that the build says so (its name the problem, escaped as a spec's name is).
 */
final class ProblemDescriptor extends AbstractTestDescriptor {

    static final String SEGMENT = "problem";

    private final String problem;

    ProblemDescriptor(UniqueId id, String problem) {
        super(id, SafeText.forTerminal(problem));
        this.problem = problem;
    }

    String problem() {
        return problem;
    }

    @Override
    public Type getType() {
        return Type.TEST;
    }
}
