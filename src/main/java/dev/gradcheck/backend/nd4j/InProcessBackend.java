package dev.gradcheck.backend.nd4j;

import dev.gradcheck.backend.Backend;
import dev.gradcheck.backend.CheckRequest;
import dev.gradcheck.backend.Validation;
import dev.gradcheck.check.BackendSampler;
import dev.gradcheck.check.CheckModes;
import dev.gradcheck.check.FunctionFactory;
import dev.gradcheck.check.GraphAwareChecker;
import dev.gradcheck.op.FunctionCache;
import dev.gradcheck.op.LayerSpecs;
import dev.gradcheck.op.NetworkLayers;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.OpBuilder;
import dev.gradcheck.op.SameDiffModel;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * Checks in this JVM, on the engine ND4J loaded here: the front end's CPU ({@code --in-process}, the library API,
 * bench), and inside every worker JVM, a CUDA worker's included. It wires op/ (how a spec becomes a function) to
 * check/.
 */
public final class InProcessBackend implements Backend {

    private final Engine engine;
    private final GraphAwareChecker checker;
    private final FunctionFactory factory;
    private final PluginSet plugins;
    private final MemoryBudget budget;
    private final FunctionCache cache;

    /**
     * @param engine  the engine ND4J runs on in this JVM (one per JVM, chosen at start-up), as results name it
     * @param factory how specs become functions; tests wrap real ops in a deliberately wrong backward here
     * @param budget  the most memory one check may plan to use
     */
    public InProcessBackend(Engine engine, FunctionFactory factory, MemoryBudget budget) {
        this(engine, factory, PluginSet.EMPTY, budget, null);
    }

    /** @param cache the cache behind {@code factory}, emptied when this backend closes; or null */
    public InProcessBackend(Engine engine, FunctionFactory factory, MemoryBudget budget, FunctionCache cache) {
        this(engine, factory, PluginSet.EMPTY, budget, cache);
    }

    private InProcessBackend(Engine engine, FunctionFactory factory, PluginSet plugins, MemoryBudget budget,
                             FunctionCache cache) {
        this.engine = engine;
        this.checker = new GraphAwareChecker(factory, engine.specName(), budget);
        this.factory = factory;
        this.plugins = plugins;
        this.budget = budget;
        this.cache = cache;
    }

    @Override
    public void close() {
        if (cache != null) {
            cache.clear();
        }
    }

    /**
     * ND4J's ops and the given plugin ops (already checked for name clashes), built within {@code budget}: an op's
     * outputs are weighed before it runs. The functions of recent specs are kept for their next check
     * ({@link FunctionCache}).
     */
    public static InProcessBackend withPlugins(Engine engine, PluginSet plugins, MemoryBudget budget) {
        FunctionCache.Builder ops = plugins.isEmpty() ? new Nd4jOpBuilder(OpCatalog.nd4j(), budget)::build
                : new OpBuilder(OpCatalog.nd4j(), plugins, budget)::build;
        FunctionCache cache = new FunctionCache(ops, KEPT_FUNCTIONS);
        return new InProcessBackend(engine, cache::build, plugins, budget, cache);
    }

    /** Built functions kept for a rerun of the same spec: enough for a shell's working set. */
    public static final int KEPT_FUNCTIONS = 16;

    @Override
    public Engine engine() {
        return engine;
    }

    /** The request's spec, overrides applied; no time limit in this JVM. */
    @Override
    public CheckResult run(CheckRequest request) {
        if (request.spec().network() != null && SameDiffModel.names(request.spec())) {
            return SameDiffModelCheck.run(request.spec(), budget, request.jacobians(), engine.specName());
        }
        if (request.spec().network() != null) {
            return NetworkCheck.run(checker, request.spec(), request.jacobians(), engine.specName(),
                    plugins.classLoader(), budget);
        }
        return checker.check(withParams(request.spec()), request.jacobians());
    }

    /**
     * Validates in this JVM, as a result record ({@link Validation}): the catalog's checks, a graph built and run
     * once, a one-op ND4J spec started as check starts it ({@link #startAsCheck}); whatever else building the spec
     * throws becomes one problem at the spec.
     */
    @Override
    public CheckResult validate(CheckRequest request) {
        OpBuilder ops = new OpBuilder(OpCatalog.nd4j(), plugins, budget);
        OpSpec spec = withParams(request.spec());
        List<SpecError> problems;
        try {
            Map<String, Long> outputs = ops.validate(spec, budget);
            if (!outputs.isEmpty()) {
                CheckModes.requireFits(budget, spec, outputs); // a graph's Jacobians, as check weighs them
            }
            if (spec.network() != null && SameDiffModel.names(spec)) {
                SameDiffModel.load(spec).nodes(); // loaded and run once, as check starts
            } else if (spec.network() != null) {
                NetworkLayers.of(spec, plugins.classLoader()); // loaded and run once: DL4J's refusals are the spec's
            } else if (spec.graph() == null && plugins.find(spec.op().value()).isEmpty()) {
                startAsCheck(spec);
            }
            problems = List.of();
        } catch (InvalidSpecException e) {
            problems = e.errors();
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
            problems = List.of(new SpecError(spec.pos(), "cannot be validated: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage().strip().lines().findFirst().orElse(""))));
        }
        return new CheckResult(spec.name(), spec.pos().toString(), spec.op().value(), engine.specName(), "",
                problems.isEmpty() ? Status.PASSED : Status.INVALID, spec.expect().kind().specName(),
                spec.expect().reason(), problems.isEmpty() ? null
                : String.join("\n", problems.stream().map(SpecError::toString).toList()), List.of(), "", 0, 0);
    }

    /**
     * A one-op ND4J spec through the same start as its check, on the same draw: built (shape function, one forward),
     * outputs selected, mask and Jacobians weighed. Whatever check would report INVALID there is a problem here, at
     * the same position; what fails once the op was accepted is the check's to report as the operator's error (or as
     * the error the spec expects), not a problem of the spec.
     */
    private void startAsCheck(OpSpec spec) throws InvalidSpecException {
        try {
            checker.validate(spec);
        } catch (RuntimeException e) {
            // thrown only after ND4J accepted the op (what it refuses is an InvalidSpecException by then), or as
            // the error an expect: error spec records: the check reports it; the spec itself is valid
            LoggerFactory.getLogger(InProcessBackend.class).debug("{}: left to check: {}", spec.name(), e.toString());
        }
    }

    /**
     * A layer spec with its DL4J layer's parameters as inputs, which the check draws and perturbs as any; its type
     * found among gradcheck's classes or the plugin paths' (a user's own layer).
     */
    private OpSpec withParams(OpSpec spec) {
        return LayerSpecs.withParams(spec, plugins.classLoader());
    }

    @Override
    public BackendSample sample(CheckRequest request) {
        try {
            return BackendSampler.take(factory, withParams(request.spec()));
        } catch (Exception e) { // the check's own result reports why the op fails
            return null;
        }
    }
}
