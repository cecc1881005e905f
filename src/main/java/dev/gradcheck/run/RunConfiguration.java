package dev.gradcheck.run;

import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.backend.EnginePool;
import dev.gradcheck.backend.InProcessPool;
import dev.gradcheck.backend.TimeLimits;
import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.backend.WorkerPool;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.Overrides;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything one run of checks is told: built by a command from its options (or by a test), executed by a
 * {@link RunSession}. Plain data: nothing here reads the environment or JVM-wide state.
 *
 * @param specs          the selected spec documents, in report order (invalid ones end INVALID)
 * @param overrides      checking settings that win over every spec's own
 * @param engines        the engines every spec runs on ({@code --backend}), or null for each spec's own
 *                       {@code backends:}
 * @param inWorkers      check in worker JVMs (crash isolation, time limits, every engine), or all in this JVM
 * @param jobs           how many CPU workers check side by side
 * @param timeoutSeconds the time limit of one check in a worker ({@code --timeout}; a spec's own wins), or null
 * @param maxMemoryBytes the most memory one check may plan to use ({@code --max-memory}), or null for half the
 *                       checking JVM's heap
 * @param plugins        the run's plugin operators, already checked for name clashes
 * @param failFast       stop at the first check that did not end as expected
 * @param jacobians      which compared blocks come back with their matrices ({@code --dump}: the failing ones; a
 *                       display of heat maps: all); NONE for ordinary runs, which then ship no matrices
 * @param texts          the YAML of documents that are not their file's content, by the file name their positions
 *                       carry (specs edited in the shell, {@code FILE (edited)}): a worker reads these, not a file
 */
public record RunConfiguration(List<LoadedSpec> specs, Overrides overrides, List<Engine> engines, boolean inWorkers,
                               int jobs, Double timeoutSeconds, Long maxMemoryBytes, PluginSet plugins,
                               boolean failFast, JacobianCapture jacobians, Map<String, String> texts) {

    public RunConfiguration {
        specs = List.copyOf(specs);
        Objects.requireNonNull(overrides, "overrides (Overrides.NONE for none)");
        Objects.requireNonNull(plugins, "plugins (PluginSet.EMPTY for none)");
        engines = engines == null ? null : List.copyOf(engines);
        jacobians = jacobians == null ? JacobianCapture.NONE : jacobians;
        texts = texts == null ? Map.of() : Map.copyOf(texts);
    }

    /** Specs read from their files, with these matrices in the results. */
    public RunConfiguration(List<LoadedSpec> specs, Overrides overrides, List<Engine> engines, boolean inWorkers,
                            int jobs, Double timeoutSeconds, Long maxMemoryBytes, PluginSet plugins,
                            boolean failFast, JacobianCapture jacobians) {
        this(specs, overrides, engines, inWorkers, jobs, timeoutSeconds, maxMemoryBytes, plugins, failFast,
                jacobians, Map.of());
    }

    /** Specs read from their files, without matrices in the results. */
    public RunConfiguration(List<LoadedSpec> specs, Overrides overrides, List<Engine> engines, boolean inWorkers,
                            int jobs, Double timeoutSeconds, Long maxMemoryBytes, PluginSet plugins,
                            boolean failFast) {
        this(specs, overrides, engines, inWorkers, jobs, timeoutSeconds, maxMemoryBytes, plugins, failFast,
                JacobianCapture.NONE);
    }

    /** The specs with every default: their own settings and backends, one CPU worker, no limits given. */
    public static RunConfiguration of(List<LoadedSpec> specs) {
        return new RunConfiguration(specs, Overrides.NONE, null, true, 1, null, null, PluginSet.EMPTY, false);
    }

    /** The same run on these engines, whatever the specs say. */
    public RunConfiguration withEngines(List<Engine> chosen) {
        return new RunConfiguration(specs, overrides, chosen, inWorkers, jobs, timeoutSeconds, maxMemoryBytes,
                plugins, failFast, jacobians, texts);
    }

    /** The same run, stopping at the first check that did not end as expected, or not. */
    public RunConfiguration withFailFast(boolean stop) {
        return new RunConfiguration(specs, overrides, engines, inWorkers, jobs, timeoutSeconds, maxMemoryBytes,
                plugins, stop, jacobians, texts);
    }

    /** The same run, its results carrying the matrices of these blocks ({@link JacobianCapture}). */
    public RunConfiguration withJacobians(JacobianCapture capture) {
        return new RunConfiguration(specs, overrides, engines, inWorkers, jobs, timeoutSeconds, maxMemoryBytes,
                plugins, failFast, capture, texts);
    }

    public TimeLimits timeLimits() {
        return new TimeLimits(timeoutSeconds);
    }

    /**
     * The engines this run asks for, started as the caller wires them: worker JVMs started from {@code workers}
     * (with the run's plugin paths and memory limit as their options), or one backend in this JVM from
     * {@code inProcess} (with the run's plugins and memory budget). The caller owns the pool and closes it.
     */
    public EnginePool openPool(BackendFactory inProcess, WorkerOptions workers) {
        if (!inWorkers) {
            MemoryBudget budget = MemoryBudget.orDefault(maxMemoryBytes);
            return new InProcessPool(Engine.CPU, () -> inProcess.create(plugins, budget));
        }
        WorkerOptions base = maxMemoryBytes == null ? workers : workers.withMaxMemory(maxMemoryBytes);
        return WorkerPool.of(plugins.isEmpty() ? base : base.withPlugins(plugins.paths()), jobs);
    }
}
