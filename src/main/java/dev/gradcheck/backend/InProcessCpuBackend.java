package dev.gradcheck.backend;

import dev.gradcheck.check.BackendSampler;
import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.check.FunctionFactory;
import dev.gradcheck.check.GraphAwareChecker;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.OpCatalog;
import dev.gradcheck.op.OpResolver;
import dev.gradcheck.op.PluginSet;
import dev.gradcheck.spec.OpSpec;

/** ND4J's CPU backend in this JVM. */
public final class InProcessCpuBackend implements Backend {

    /** Set on worker JVMs to the backend they run. */
    static final String NAME_PROPERTY = "gradcheck.backend";

    private final GraphAwareChecker checker;
    private final FunctionFactory factory;

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
        this.factory = factory;
    }

    /**
     * "cpu", or what a worker was started as: ND4J holds one backend per JVM, chosen at start-up (the CUDA worker
     * gets BACKEND_PRIORITY_GPU), so the name is a fact about this JVM, passed in as {@value #NAME_PROPERTY}.
     */
    @Override
    public String name() {
        return System.getProperty(NAME_PROPERTY, "cpu");
    }

    @Override
    public CheckResult run(OpSpec spec) {
        return checker.check(spec);
    }

    @Override
    public BackendSample sample(OpSpec spec) {
        try {
            return BackendSampler.take(factory, spec);
        } catch (Exception e) { // the check's own result reports why the op fails
            return null;
        }
    }
}
