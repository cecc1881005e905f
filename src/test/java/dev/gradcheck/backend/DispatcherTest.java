package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which ended checks the dispatcher asks for a cross-backend sample. */
class DispatcherTest {

    /** Ends each spec as its name says, and records which specs were sampled. */
    private static final class Scripted implements Backend {
        final List<String> sampled = new ArrayList<>();

        @Override
        public Engine engine() {
            return Engine.CPU;
        }

        @Override
        public CheckResult run(CheckRequest request) {
            OpSpec spec = request.spec();
            Status status = Status.valueOf(spec.name().toUpperCase());
            List<GradientResult> gradients = status == Status.PASSED || status == Status.FAILED
                    ? List.of(new GradientResult("0", "x", CheckKind.JACOBIAN, 1, Verdict.PASS, 0, 0, 0, null, 4, 0,
                            null, null))
                    : List.of();
            return new CheckResult(spec.name(), "", spec.op().value(), "cpu", "float64", status, "pass", null, null,
                    gradients, "", 1e-6, 0);
        }

        @Override
        public BackendSample sample(CheckRequest request) {
            sampled.add(request.spec().name()); // a real engine allocates the spec's inputs here, outside any memory budget
            return null;
        }
    }

    @Test
    void onlyChecksThatGotAsFarAsGradientsAreSampled() throws InterruptedException {
        StringBuilder yaml = new StringBuilder();
        List<String> names = List.of("passed", "invalid", "error", "failed", "crashed", "timeout");
        for (String name : names) {
            yaml.append("name: ").append(name).append("\nop: tanh\ninputs: {x: {shape: [2]}}\n---\n");
        }
        List<LoadedSpec> specs = new SpecLoader().loadText("d.yaml", "d", yaml.toString());
        List<Dispatcher.Task> tasks = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            tasks.add(new Dispatcher.Task(i, CheckRequest.of(specs.get(i).spec()), Engine.CPU, true));
        }
        Scripted backend = new Scripted();
        List<String> ended = new ArrayList<>();
        try (EnginePool pool = new InProcessPool(Engine.CPU, () -> backend)) {
            new Dispatcher(pool).run(tasks, (task, result, sample) -> ended.add(result.name()));
        }
        assertEquals(names, ended);
        assertEquals(List.of("passed", "failed"), backend.sampled, "an invalid (refused) or erroring check is not run"
                + " again for a sample");
    }
}
