package dev.gradcheck.backend;

import dev.gradcheck.check.CheckResult;
import dev.gradcheck.check.FunctionFactory;
import dev.gradcheck.check.GraphAwareChecker;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.OpCatalog;
import dev.gradcheck.op.OpResolver;
import dev.gradcheck.op.PluginSet;
import dev.gradcheck.spec.OpSpec;

/** ND4J's CPU backend in this JVM. */
public final class InProcessCpuBackend implements Backend {

    private final GraphAwareChecker checker;

    public InProcessCpuBackend() {
        this(new Nd4jOpBuilder(OpCatalog.nd4j())::build);
    }

    /** ND4J's ops and the given plugin ops (already checked for name clashes). */
    public static InProcessCpuBackend withPlugins(PluginSet plugins) {
        return plugins.isEmpty() ? new InProcessCpuBackend()
                : new InProcessCpuBackend(new OpResolver(OpCatalog.nd4j(), plugins)::build);
    }

    /** With another way to build functions: tests use it to wrap real ops in a deliberately wrong backward. */
    public InProcessCpuBackend(FunctionFactory factory) {
        this.checker = new GraphAwareChecker(factory, name());
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
