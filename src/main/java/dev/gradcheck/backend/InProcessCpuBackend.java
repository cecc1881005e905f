package dev.gradcheck.backend;

import dev.gradcheck.check.CheckResult;
import dev.gradcheck.check.GradientChecker;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.OpCatalog;
import dev.gradcheck.spec.OpSpec;

/** ND4J's CPU backend in this JVM. */
public final class InProcessCpuBackend implements Backend {

    private final GradientChecker checker;

    public InProcessCpuBackend() {
        Nd4jOpBuilder builder = new Nd4jOpBuilder(OpCatalog.nd4j());
        this.checker = new GradientChecker(builder::build, name());
    }

    @Override
    public String name() {
        return "cpu";
    }

    @Override
    public CheckResult run(OpSpec spec) {
        return checker.check(spec);
    }
}
