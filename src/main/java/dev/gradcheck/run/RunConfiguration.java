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
 * Everything one run of checks is told: built by a command from its options (or by a test) through
 * {@link #builder}, executed by a {@link RunSession}. Plain data: nothing here reads the environment or JVM-wide
 * state. A builder, not a constructor, because most runs leave most settings at their defaults and eleven
 * positional arguments (three of them nullable numbers) were read by counting commas.
 */
public final class RunConfiguration {

    private final List<LoadedSpec> specs;
    private final Overrides overrides;
    private final List<Engine> engines;
    private final boolean inWorkers;
    private final int jobs;
    private final int lanesHere;
    private final Double timeoutSeconds;
    private final Long maxMemoryBytes;
    private final PluginSet plugins;
    private final boolean failFast;
    private final JacobianCapture jacobians;
    private final Map<String, String> texts;

    private RunConfiguration(Builder b) {
        specs = List.copyOf(b.specs);
        overrides = Objects.requireNonNull(b.overrides, "overrides (Overrides.NONE for none)");
        plugins = Objects.requireNonNull(b.plugins, "plugins (PluginSet.EMPTY for none)");
        engines = b.engines == null ? null : List.copyOf(b.engines);
        inWorkers = b.inWorkers;
        jobs = b.jobs;
        lanesHere = b.lanesHere;
        timeoutSeconds = b.timeoutSeconds;
        maxMemoryBytes = b.maxMemoryBytes;
        failFast = b.failFast;
        jacobians = b.jacobians == null ? JacobianCapture.NONE : b.jacobians;
        texts = b.texts == null ? Map.of() : Map.copyOf(b.texts);
    }

    /**
     * A run of these spec documents, in report order (invalid ones end INVALID), with every default until the
     * builder says otherwise: each spec's own settings and backends, one CPU worker, no time or memory limit
     * given, no plugins, no fail-fast, no matrices.
     */
    public static Builder builder(List<LoadedSpec> specs) {
        return new Builder(specs);
    }

    /** The specs with every default ({@link #builder}'s). */
    public static RunConfiguration of(List<LoadedSpec> specs) {
        return builder(specs).build();
    }

    /** A builder holding this run's settings, to change some of them. */
    public Builder toBuilder() {
        return builder(specs).overrides(overrides).engines(engines).inWorkers(inWorkers).jobs(jobs)
                .lanesHere(lanesHere).timeout(timeoutSeconds).maxMemory(maxMemoryBytes).plugins(plugins)
                .failFast(failFast).jacobians(jacobians).texts(texts);
    }

    /** The same run on these engines, whatever the specs say. */
    public RunConfiguration withEngines(List<Engine> chosen) {
        return toBuilder().engines(chosen).build();
    }

    /** The same run, stopping at the first check that did not end as expected, or not. */
    public RunConfiguration withFailFast(boolean stop) {
        return toBuilder().failFast(stop).build();
    }

    /** The selected spec documents, in report order. */
    public List<LoadedSpec> specs() {
        return specs;
    }

    /** Checking settings that win over every spec's own. */
    public Overrides overrides() {
        return overrides;
    }

    /** The engines every spec runs on ({@code --backend}), or null for each spec's own {@code backends:}. */
    public List<Engine> engines() {
        return engines;
    }

    /** Whether checks run in worker JVMs (crash isolation, time limits, every engine), or all in this JVM. */
    public boolean inWorkers() {
        return inWorkers;
    }

    /** How many CPU workers check side by side. */
    public int jobs() {
        return jobs;
    }

    /** How many checks run side by side where they run in this JVM ({@link #inWorkers} false). */
    public int lanesHere() {
        return lanesHere;
    }

    /** The time limit of one check in a worker ({@code --timeout}; a spec's own wins), or null. */
    public Double timeoutSeconds() {
        return timeoutSeconds;
    }

    /**
     * The most memory one check may plan to use ({@code --max-memory}), or null for half the checking JVM's
     * heap.
     */
    public Long maxMemoryBytes() {
        return maxMemoryBytes;
    }

    /** The run's plugin operators, already checked for name clashes. */
    public PluginSet plugins() {
        return plugins;
    }

    /** Whether the run stops at the first check that did not end as expected. */
    public boolean failFast() {
        return failFast;
    }

    /**
     * Which compared blocks come back with their matrices ({@code --dump}: the failing ones; a display of heat
     * maps: all); NONE for ordinary runs, which then ship no matrices.
     */
    public JacobianCapture jacobians() {
        return jacobians;
    }

    /**
     * The YAML of documents that are not their file's content, by the file name their positions carry (specs
     * edited in the shell, {@code FILE (edited)}): a worker reads these, not a file.
     */
    public Map<String, String> texts() {
        return texts;
    }

    public TimeLimits timeLimits() {
        return new TimeLimits(timeoutSeconds);
    }

    /**
     * The engines this run asks for, started as the caller wires them: worker JVMs started from {@code workers}
     * (with the run's plugin paths and memory limit as their options), or backends in this JVM from
     * {@code inProcess} (with the run's plugins and memory budget), one per lane. The caller owns the pool and closes
     * it.
     */
    public EnginePool openPool(BackendFactory inProcess, WorkerOptions workers) {
        if (!inWorkers) {
            MemoryBudget budget = MemoryBudget.orDefault(maxMemoryBytes);
            return new InProcessPool(Engine.CPU, lanesHere, () -> inProcess.create(plugins, budget));
        }
        WorkerOptions base = maxMemoryBytes == null ? workers : workers.withMaxMemory(maxMemoryBytes);
        return WorkerPool.of(plugins.isEmpty() ? base : base.withPlugins(plugins.paths()), jobs);
    }

    /** A run's settings, each at its default until set ({@link RunConfiguration#builder}). */
    public static final class Builder {
        private final List<LoadedSpec> specs;
        private Overrides overrides = Overrides.NONE;
        private List<Engine> engines;
        private boolean inWorkers = true;
        private int jobs = 1;
        private int lanesHere = 1;
        private Double timeoutSeconds;
        private Long maxMemoryBytes;
        private PluginSet plugins = PluginSet.EMPTY;
        private boolean failFast;
        private JacobianCapture jacobians = JacobianCapture.NONE;
        private Map<String, String> texts = Map.of();

        private Builder(List<LoadedSpec> specs) {
            this.specs = specs;
        }

        /** Checking settings that win over every spec's own (default: none). */
        public Builder overrides(Overrides given) {
            overrides = given;
            return this;
        }

        /** Run every spec on these engines; null (the default): each on its own {@code backends:}. */
        public Builder engines(List<Engine> chosen) {
            engines = chosen;
            return this;
        }

        /** Check in worker JVMs (the default), or all in this JVM. */
        public Builder inWorkers(boolean workers) {
            inWorkers = workers;
            return this;
        }

        /** How many CPU workers check side by side (default 1). */
        public Builder jobs(int workers) {
            jobs = workers;
            return this;
        }

        /**
         * How many checks run side by side where they run in this JVM (default 1, as {@code --in-process} says):
         * a small run in the front end's JVM takes more ({@code backend.SharedJvm#lanes}).
         */
        public Builder lanesHere(int lanes) {
            lanesHere = lanes;
            return this;
        }

        /** One check's time limit in a worker; null (the default): the spec's, else the built-in one. */
        public Builder timeout(Double seconds) {
            timeoutSeconds = seconds;
            return this;
        }

        /** The most memory one check may plan to use; null (the default): half the checking JVM's heap. */
        public Builder maxMemory(Long bytes) {
            maxMemoryBytes = bytes;
            return this;
        }

        /** The run's plugin operators, already checked for name clashes (default: none). */
        public Builder plugins(PluginSet loaded) {
            plugins = loaded;
            return this;
        }

        /** Stop at the first check that did not end as expected (default: run every check). */
        public Builder failFast(boolean stop) {
            failFast = stop;
            return this;
        }

        /** Which compared blocks come back with their matrices (default: none). */
        public Builder jacobians(JacobianCapture capture) {
            jacobians = capture;
            return this;
        }

        /** The YAML of edited documents, by the file name their positions carry (default: none). */
        public Builder texts(Map<String, String> edited) {
            texts = edited;
            return this;
        }

        public RunConfiguration build() {
            return new RunConfiguration(this);
        }
    }
}
