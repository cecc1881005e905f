package dev.gradcheck.backend;

import dev.gradcheck.result.Engine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Engines in worker JVMs: per engine as many lanes as {@link EngineSupport#lanes} gives for {@code --jobs}, each
 * a {@link WorkerBackend}. ND4J holds one engine per JVM, so each engine gets workers of its own, and a worker's
 * death is one check's CRASHED result, never the front end's.
 */
public final class WorkerPool implements EnginePool {

    private final Function<Engine, Availability> probe;
    private final BiFunction<Engine, Availability, WorkerOptions> options;
    private final int jobs;
    private final Map<Engine, Availability> probed = new EnumMap<>(Engine.class);
    private final Map<Engine, List<Lane>> lanes = new EnumMap<>(Engine.class);

    /**
     * @param probe   whether an engine can run here (tests stand a CPU worker in for CUDA)
     * @param options how to start a worker on an engine, given what its probe found
     * @param jobs    {@code --jobs}
     */
    public WorkerPool(Function<Engine, Availability> probe, BiFunction<Engine, Availability, WorkerOptions> options,
                      int jobs) {
        this.probe = probe;
        this.options = options;
        this.jobs = jobs;
    }

    /** Workers started from {@code base} (plugins, memory budget, JVM options), each on its engine. */
    public static WorkerPool of(WorkerOptions base, int jobs) {
        return new WorkerPool(e -> EngineSupport.of(e).probe(true), base::on, jobs);
    }

    @Override
    public synchronized Availability availability(Engine engine) {
        return probed.computeIfAbsent(engine, probe);
    }

    @Override
    public synchronized List<Lane> lanes(Engine engine) {
        return lanes.computeIfAbsent(engine, e -> {
            WorkerOptions worker = options.apply(e, availability(e));
            List<Lane> made = new ArrayList<>();
            for (int i = 0; i < EngineSupport.of(e).lanes(jobs); i++) {
                made.add(new Lane(() -> new WorkerBackend(worker)));
            }
            return List.copyOf(made);
        });
    }

    /**
     * Starts the CPU worker a run of {@code base} will ask for, before the command line is even read (a front end
     * that sees a {@code check} coming): the worker's start (most of a short run) overlaps the front end's own. A
     * pool whose first CPU worker has the same options takes it; one with other options (plugins, a memory
     * limit) kills it and starts its own. {@link #discardEarly} kills it if no pool took it.
     */
    public static void startEarly(WorkerOptions base) {
        try {
            WorkerProcess.startEarly(base.on(Engine.CPU, Availability.ALWAYS));
        } catch (IOException e) {
            // the run's own start reports it
        }
    }

    /** Kills a worker {@link #startEarly} started that no run took (the command was not a check after all). */
    public static void discardEarly() {
        WorkerProcess.discardEarly();
    }

    /**
     * For Ctrl-C: a terminal signals the workers too, but a front end stopped alone (kill -INT, a CI runner's
     * timeout) would leave them behind, busy with a check nobody waits for.
     */
    @Override
    public void abort() {
        WorkerProcess.killAll();
    }

    @Override
    public synchronized void close() {
        lanes.values().forEach(engineLanes -> engineLanes.forEach(Lane::close));
    }
}
