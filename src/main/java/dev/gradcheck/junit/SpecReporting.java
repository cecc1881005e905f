package dev.gradcheck.junit;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.run.PlannedCheck;
import dev.gradcheck.run.RunListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The run's listener: collects each spec's results (one per engine it runs on) and, once the last has come,
 * hands the spec's test and its {@link Outcome} on. Results find their test by the spec's place
 * ({@code file:line:col}), which every result of the spec carries.
 */
final class SpecReporting implements RunListener {

    private final Map<String, SpecTestDescriptor> tests = new LinkedHashMap<>();
    private final Map<String, Integer> rowsLeft = new HashMap<>();
    private final Map<String, List<CheckResult>> results = new HashMap<>();
    private final BiConsumer<SpecTestDescriptor, Outcome> report;

    SpecReporting(List<SpecTestDescriptor> specs, BiConsumer<SpecTestDescriptor, Outcome> report) {
        specs.forEach(t -> tests.put(t.location(), t));
        this.report = report;
    }

    @Override
    public synchronized void runStarted(List<PlannedCheck> checks) {
        for (PlannedCheck check : checks) {
            rowsLeft.merge(check.spec().pos().toString(), 1, Integer::sum);
        }
    }

    @Override
    public void checkFinished(int index, CheckResult result) {
        SpecTestDescriptor test;
        List<CheckResult> rows;
        synchronized (this) {
            String location = result.location();
            results.computeIfAbsent(location, l -> new ArrayList<>()).add(result);
            if (rowsLeft.merge(location, -1, Integer::sum) > 0) {
                return;
            }
            test = tests.remove(location);
            rows = results.remove(location);
        }
        if (test != null) {
            report.accept(test, Outcome.of(rows));
        }
    }

    /** The tests whose results have not all come (none, unless the run ended early). */
    synchronized List<SpecTestDescriptor> unfinished() {
        List<SpecTestDescriptor> left = List.copyOf(tests.values());
        tests.clear();
        return left;
    }
}
