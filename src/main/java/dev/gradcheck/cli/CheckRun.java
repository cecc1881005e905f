package dev.gradcheck.cli;

import dev.gradcheck.backend.Availability;
import dev.gradcheck.backend.Backend;
import dev.gradcheck.backend.Dispatcher;
import dev.gradcheck.backend.EngineSupport;
import dev.gradcheck.check.Unfinished;
import dev.gradcheck.result.BackendDifference;
import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.Overrides;
import dev.gradcheck.spec.SpecError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The checks of one {@code check} command: which spec runs on which backend, the results known before anything
 * runs (invalid specs, backends not usable here), and the others as they arrive from the lanes. Results keep the
 * order of the specs, whatever order they finish in.
 */
final class CheckRun {

    /** A piece of work that may be interrupted. */
    interface Body {
        void run() throws InterruptedException;
    }

    private final List<Dispatcher.Task> tasks = new ArrayList<>();
    private final CheckResult[] slots;
    /** Per slot, the backend's sample when its spec runs on several backends. */
    private final BackendSample[] samples;
    /** For the slots of a spec on several backends, all its slots: the first is the reference. */
    private final Map<Integer, int[]> groups = new HashMap<>();
    private final Function<Engine, Availability> probe;
    /** Each engine's availability, probed when a check first needs it. */
    private final Map<Engine, Availability> probed = new EnumMap<>(Engine.class);
    private Dispatcher dispatcher;
    private boolean interrupted;
    private boolean failFast;

    CheckRun(List<LoadedSpec> specs, Overrides overrides, EngineChoice choice, boolean workers, Console console) {
        this(specs, overrides, choice, workers, console, e -> EngineSupport.of(e).probe(workers));
    }

    /** @param overrides the command line's checking settings, applied to every spec */
    CheckRun(List<LoadedSpec> specs, Overrides overrides, EngineChoice choice, boolean workers, Console console,
             Function<Engine, Availability> probe) {
        this.probe = probe;
        List<CheckResult> known = new ArrayList<>();
        for (LoadedSpec loaded : specs) {
            if (!loaded.isValid()) {
                known.add(invalid(loaded));
                continue;
            }
            OpSpec spec = loaded.spec().with(overrides);
            List<Engine> backends = choice == null ? spec.backends() : choice.engines();
            boolean compare = backends.size() > 1;
            int[] group = new int[backends.size()];
            for (int b = 0; b < backends.size(); b++) {
                Engine backend = backends.get(b);
                group[b] = known.size();
                String skip = skipReason(backend, console);
                if (skip != null) {
                    known.add(Unfinished.of(spec, backend.specName(), Status.SKIPPED, skip, 0));
                } else {
                    tasks.add(new Dispatcher.Task(known.size(), spec, backend, compare));
                    known.add(null);
                }
            }
            if (compare) {
                for (int i : group) {
                    groups.put(i, group);
                }
            }
        }
        slots = known.toArray(new CheckResult[0]);
        samples = new BackendSample[slots.length];
    }

    /** What the probe found for an engine; {@link Availability#ALWAYS} when no check needed the engine. */
    Availability availability(Engine engine) {
        return probed.getOrDefault(engine, Availability.ALWAYS);
    }

    void execute(Map<Engine, List<Supplier<Backend>>> lanes, boolean failFast) throws InterruptedException {
        Dispatcher d;
        synchronized (this) {
            this.failFast = failFast;
            if (interrupted || (failFast && firstFailure() < firstTask())) {
                return; // a spec before any check already ended the run
            }
            d = dispatcher = new Dispatcher(lanes);
        }
        d.run(tasks, (task, result, sample) -> record(task.index(), result, sample));
    }

    /**
     * Once every backend of a spec has ended, each further backend's row gets its difference from the first's,
     * where both samples exist; the samples (whole outputs and gradients) are dropped right after.
     */
    private void compareWhenComplete(int[] group) {
        for (int i : group) {
            if (slots[i] == null) {
                return;
            }
        }
        BackendSample reference = samples[group[0]];
        for (int k = 1; k < group.length; k++) {
            int i = group[k];
            if (reference != null && samples[i] != null) {
                slots[i] = slots[i].withCrossBackend(BackendDifference.of(slots[group[0]].backend(), reference,
                        samples[i]));
            }
        }
        for (int i : group) {
            samples[i] = null;
        }
    }

    /** The results so far, in spec order; with --fail-fast, up to the first that did not end as expected. */
    synchronized List<CheckResult> results() {
        int end = failFast ? Math.min(slots.length, firstFailure() + 1) : slots.length;
        return Arrays.stream(slots, 0, end).filter(Objects::nonNull).toList();
    }

    /** Ctrl-C: no more checks start, and whatever ends from now on (workers die with the front end) is dropped. */
    synchronized List<CheckResult> interrupt() {
        interrupted = true;
        if (dispatcher != null) {
            dispatcher.stop();
        }
        return results();
    }

    synchronized boolean wasInterrupted() {
        return interrupted;
    }

    private synchronized void record(int index, CheckResult result, BackendSample sample) {
        if (interrupted) {
            return;
        }
        slots[index] = result;
        samples[index] = sample;
        if (groups.containsKey(index)) {
            compareWhenComplete(groups.get(index));
        }
        if (failFast && result.status().needsAttention()) {
            dispatcher.stop();
        }
    }

    private int firstFailure() {
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] != null && slots[i].status().needsAttention()) {
                return i;
            }
        }
        return Integer.MAX_VALUE - 1;
    }

    private int firstTask() {
        return tasks.isEmpty() ? Integer.MAX_VALUE : tasks.get(0).index();
    }

    /** Why a check cannot run on {@code engine} here, or null when it can; says so on stderr once. */
    private String skipReason(Engine engine, Console console) {
        Availability a = probed.computeIfAbsent(engine, e -> {
            Availability found = probe.apply(e);
            if (found.message() != null) {
                console.err().println("gradcheck: " + found.message() + (found.usable() ? ""
                        : "; " + e.specName() + " checks are skipped"));
            }
            return found;
        });
        return a.usable() ? null : a.message();
    }

    private static CheckResult invalid(LoadedSpec loaded) {
        String message = String.join("\n", loaded.errors().stream().map(SpecError::toString).toList());
        return new CheckResult(loaded.name(), loaded.pos().toString(), "", "", "", Status.INVALID, "pass", null,
                message, List.of(), "", 0, 0);
    }
}
