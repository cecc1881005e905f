package dev.gradcheck.run;

import dev.gradcheck.backend.Availability;
import dev.gradcheck.backend.CheckRequest;
import dev.gradcheck.backend.Dispatcher;
import dev.gradcheck.backend.EnginePool;
import dev.gradcheck.check.Unfinished;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Which spec runs on which engine: one report row per (valid spec, engine), in spec order. Rows whose result is
 * known before anything runs (an invalid spec, an engine not usable here) are filled in now; the others become
 * tasks for the lanes.
 *
 * @param known   per row, its result when known now, else null (a task will fill it)
 * @param tasks   the checks to dispatch, in row order
 * @param groups  the rows of each spec that runs on several engines, the reference engine's first
 * @param planned every row, as listeners see it before the run starts
 */
record RunPlan(List<CheckResult> known, List<Dispatcher.Task> tasks, List<int[]> groups,
               List<PlannedCheck> planned) {

    /**
     * @param notices hears, once per engine, what its probe said when there is something to say (why its checks
     *                are skipped, or which device it uses)
     */
    static RunPlan of(RunConfiguration config, EnginePool pool, Consumer<String> notices) {
        List<CheckResult> known = new ArrayList<>();
        List<Dispatcher.Task> tasks = new ArrayList<>();
        List<int[]> groups = new ArrayList<>();
        List<PlannedCheck> planned = new ArrayList<>();
        Set<Engine> probed = EnumSet.noneOf(Engine.class);
        for (LoadedSpec loaded : config.specs()) {
            if (!loaded.isValid()) {
                planned.add(new PlannedCheck(known.size(), loaded.name(), null, null));
                known.add(invalid(loaded));
                continue;
            }
            OpSpec spec = loaded.spec().with(config.overrides());
            List<Engine> engines = config.engines() == null ? spec.backends() : config.engines();
            boolean compare = engines.size() > 1;
            int[] group = new int[engines.size()];
            for (int b = 0; b < engines.size(); b++) {
                Engine engine = engines.get(b);
                group[b] = known.size();
                planned.add(new PlannedCheck(known.size(), spec.name(), engine, spec));
                Availability availability = pool.availability(engine);
                if (probed.add(engine) && availability.message() != null) {
                    notices.accept(availability.message() + (availability.usable() ? ""
                            : "; " + engine.specName() + " checks are skipped"));
                }
                if (availability.usable()) {
                    CheckRequest request = new CheckRequest(spec, config.overrides(), config.timeLimits(),
                            config.jacobians(), config.texts().get(spec.pos().file()));
                    tasks.add(new Dispatcher.Task(known.size(), request, engine, compare));
                    known.add(null);
                } else {
                    known.add(Unfinished.of(spec, engine.specName(), Status.SKIPPED, availability.message(), 0));
                }
            }
            if (compare) {
                groups.add(group);
            }
        }
        return new RunPlan(known, tasks, groups, planned);
    }

    private static CheckResult invalid(LoadedSpec loaded) {
        String message = String.join("\n", loaded.errors().stream().map(SpecError::toString).toList());
        return new CheckResult(loaded.name(), loaded.pos().toString(), "", "", "", Status.INVALID, "pass", null,
                message, List.of(), "", 0, 0);
    }
}
