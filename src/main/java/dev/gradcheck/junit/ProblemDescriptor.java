package dev.gradcheck.junit;

import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;

/** A selector that found no spec file: a test that fails with what was wrong, so that the build says so. */
final class ProblemDescriptor extends AbstractTestDescriptor {

    static final String SEGMENT = "problem";

    private final String problem;

    ProblemDescriptor(UniqueId id, String problem) {
        super(id, problem);
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
