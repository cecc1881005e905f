package dev.gradcheck.cli.shell;

import dev.gradcheck.backend.Availability;
import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.backend.EnginePool;
import dev.gradcheck.backend.Lane;
import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.run.RunConfiguration;
import dev.gradcheck.run.RunHost;
import dev.gradcheck.spec.LoadedSpec;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The shell's engines: one pool for the whole session, whose CPU worker starts when the shell does and stays warm,
 * so that a check at the prompt costs the check and not a JVM and ND4J start-up. Every run the shell makes (its own
 * re-checks, and {@code check PATH...} typed at the prompt) uses that pool, unless it asks for workers the pool does
 * not have (other plugins, another memory limit, {@code --jobs}, in-process or not): those get a pool of their own
 * for the run. Ctrl-C at the terminal interrupts the run in progress, not the shell.
 */
public final class WarmEngines implements RunHost, AutoCloseable {

    private final BackendFactory inProcess;
    private final WorkerOptions workers;
    /** The shell's settings, as a run of no specs: workers or not, plugins, memory limit, time limit. */
    private final RunConfiguration template;
    private final EnginePool pool;
    private volatile Runnable interrupt;

    /**
     * @param workers how to start worker JVMs; null checks in this JVM ({@code --in-process}, and tests)
     */
    WarmEngines(BackendFactory inProcess, WorkerOptions workers, PluginSet plugins, Long maxMemoryBytes,
                Double timeoutSeconds) {
        this.inProcess = inProcess;
        this.workers = workers;
        this.template = RunConfiguration.builder(List.of()).inWorkers(workers != null).timeout(timeoutSeconds)
                .maxMemory(maxMemoryBytes).plugins(plugins).build();
        this.pool = template.openPool(inProcess, workers);
    }

    /** Whether checks run in a worker JVM (else in this one). */
    boolean inWorkers() {
        return template.inWorkers();
    }

    /**
     * Starts the CPU worker now, on a thread of its own, so that it is ready by the time the user asks for a check
     * (a check that comes sooner waits for it). Again after a crash: the next check finds a fresh worker.
     */
    void warmUpInBackground() {
        Thread t = new Thread(() -> {
            try {
                pool.warmUp(Engine.CPU);
            } catch (RuntimeException e) {
                // the first check starts it again, and says why if it cannot
            }
        }, "gradcheck-shell-warm-up");
        t.setDaemon(true);
        t.start();
    }

    /**
     * A run of these documents with the shell's settings, its results carrying every compared block's matrices
     * (for {@code jacobians} and {@code explain}: the shell checks one spec at a time, so they are few);
     * {@code texts} are the edited ones' YAML, by label.
     */
    RunConfiguration configure(List<LoadedSpec> specs, Map<String, String> texts) {
        return RunConfiguration.builder(specs).overrides(template.overrides()).inWorkers(template.inWorkers())
                .timeout(template.timeoutSeconds()).maxMemory(template.maxMemoryBytes()).plugins(template.plugins())
                .jacobians(JacobianCapture.ALL).texts(texts).build();
    }

    @Override
    public EnginePool pool(RunConfiguration config) {
        boolean same = config.inWorkers() == template.inWorkers() && config.jobs() == template.jobs()
                && Objects.equals(config.maxMemoryBytes(), template.maxMemoryBytes())
                && config.plugins().paths().equals(template.plugins().paths());
        return same ? new Shared(pool) : config.openPool(inProcess, workers);
    }

    @Override
    public Watch onInterrupt(Runnable onInterrupt) {
        interrupt = onInterrupt;
        return () -> interrupt = null;
    }

    @Override
    public int interruptedExitCode() {
        return ExitCode.INTERRUPTED.code();
    }

    /**
     * Ctrl-C at the terminal: interrupts the run in progress (its checks in flight are killed with their worker,
     * whose successor starts at once); false when no run is in progress.
     */
    boolean interrupt() {
        Runnable r = interrupt;
        if (r == null) {
            return false;
        }
        r.run();
        warmUpInBackground();
        return true;
    }

    /** Ends the session: workers are killed rather than waited for (one may still be starting). */
    @Override
    public void close() {
        pool.abort();
        pool.close();
    }

    /** The warm pool for one run: the run's close leaves its workers running for the next. */
    private record Shared(EnginePool pool) implements EnginePool {
        @Override
        public Availability availability(Engine engine) {
            return pool.availability(engine);
        }

        @Override
        public List<Lane> lanes(Engine engine) {
            return pool.lanes(engine);
        }

        @Override
        public void abort() {
            pool.abort();
        }

        @Override
        public void close() {
            // the shell's: closed when the shell ends
        }
    }
}
