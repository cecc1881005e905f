package dev.gradcheck.junit;

import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.backend.EnginePool;
import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.op.plugin.PluginException;
import dev.gradcheck.op.plugin.PluginLoader;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.run.RunConfiguration;
import dev.gradcheck.run.RunSession;
import dev.gradcheck.spec.CheckOptions;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecError;
import java.util.ArrayList;
import java.util.List;
import org.junit.platform.engine.EngineExecutionListener;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;

/**
 * One execution of the engine's tests: invalid specs and selector problems fail at once; the valid specs run as one
 * run of run/'s {@link RunSession} in worker JVMs (as {@code gradcheck check} runs them: a crash or a hang costs a
 * worker and one test), with {@link SpecReporting} turning each spec's results into its test's events.
 */
final class SpecExecution {

    private final ExecutionRequest request;
    private final EngineExecutionListener listener;
    private final TestDescriptor root;

    SpecExecution(ExecutionRequest request) {
        this.request = request;
        this.listener = request.getEngineExecutionListener();
        this.root = request.getRootTestDescriptor();
    }

    void run() {
        listener.executionStarted(root);
        root.getChildren().stream().filter(c -> c.getType() == TestDescriptor.Type.CONTAINER)
                .forEach(listener::executionStarted);
        List<SpecTestDescriptor> valid = reportProblemsAndInvalidSpecs();
        if (!valid.isEmpty()) {
            // discovery read the settings that chose these tests: they run under the same
            check(valid, root instanceof SpecEngineDescriptor e ? e.settings() : EngineSettings.NONE);
        }
        root.getChildren().stream().filter(c -> c.getType() == TestDescriptor.Type.CONTAINER)
                .forEach(c -> listener.executionFinished(c, TestExecutionResult.successful()));
        listener.executionFinished(root, TestExecutionResult.successful());
    }

    /** Fails every selector problem and invalid spec; returns the specs left to check. */
    private List<SpecTestDescriptor> reportProblemsAndInvalidSpecs() {
        List<SpecTestDescriptor> valid = new ArrayList<>();
        for (TestDescriptor child : root.getChildren()) {
            if (child instanceof ProblemDescriptor problem) {
                String text = problem.problem();
                report(problem, Outcome.problem(text.startsWith("gradcheck: ") ? text : "gradcheck: " + text));
            }
            for (TestDescriptor test : child.getChildren()) {
                SpecTestDescriptor spec = (SpecTestDescriptor) test;
                if (spec.spec().isValid()) {
                    valid.add(spec);
                } else {
                    report(spec, Outcome.problem(String.join("\n", spec.spec().errors().stream()
                            .map(SpecError::toString).toList())));
                }
            }
        }
        return valid;
    }

    private void check(List<SpecTestDescriptor> tests, EngineSettings settings) {
        PluginSet plugins;
        try {
            plugins = PluginLoader.load(settings.plugins());
            if (!plugins.isEmpty()) {
                plugins.rejectClashes(OpCatalog.nd4j());
            }
        } catch (PluginException e) {
            Outcome failed = Outcome.problem("gradcheck: " + EngineSettings.PLUGINS + ": "
                    + String.join("\n", e.problems()));
            tests.forEach(t -> report(t, failed));
            return;
        }
        RunConfiguration config = configuration(tests, settings, plugins);
        SpecReporting reporting = new SpecReporting(tests, this::report);
        String ended = "gradcheck: the run ended before this spec was checked";
        try (EnginePool pool = config.openPool(BackendFactory.CPU, WorkerOptions.cpu())) {
            RunSession session = new RunSession(config, pool);
            session.addListener(reporting);
            session.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (LinkageError e) {
            ended = GradcheckTestEngine.unusableClassPath(e);
        } finally {
            Outcome unfinished = Outcome.problem(ended);
            reporting.unfinished().forEach(t -> report(t, unfinished));
        }
    }

    private static RunConfiguration configuration(List<SpecTestDescriptor> tests, EngineSettings settings,
                                                  PluginSet plugins) {
        List<LoadedSpec> specs = tests.stream().map(SpecTestDescriptor::spec).toList();
        var overrides = settings.overrides();
        if (overrides.threads() == null && settings.jobs() > 1) { // the workers share the processors, as check's
            overrides = overrides.withThreads(CheckOptions.defaultThreads(settings.jobs()));
        }
        return RunConfiguration.builder(specs).overrides(overrides).engines(settings.engines()).inWorkers(true)
                .jobs(settings.jobs()).timeout(settings.timeout()).plugins(plugins).build();
    }

    /** The test's events: skipped, or started and finished. Called from the run's threads, one at a time. */
    private synchronized void report(TestDescriptor test, Outcome outcome) {
        if (outcome.skipReason() != null) {
            listener.executionSkipped(test, outcome.skipReason());
        } else {
            listener.executionStarted(test);
            listener.executionFinished(test, outcome.result());
        }
    }
}
