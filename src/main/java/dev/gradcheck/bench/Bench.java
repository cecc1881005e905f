package dev.gradcheck.bench;

import dev.gradcheck.backend.Backend;
import dev.gradcheck.backend.InProcessBackend;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.OpCatalog;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InputValues;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.DynamicCustomOp;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Measures what a check costs: the whole check (median of several), one finite-difference evaluation through the
 * built graph, one backward row, and the bare native kernel on the same inputs.
 */
public final class Bench {

    private final int repeats;
    private final PrintWriter out;

    public Bench(int repeats, PrintWriter out) {
        this.repeats = repeats;
        this.out = out;
    }

    public void run() throws InvalidSpecException {
        Nd4jOpBuilder builder = new Nd4jOpBuilder(OpCatalog.nd4j());
        // whole checks go through the engine --in-process and the library use, as a user's would
        Backend checker = new InProcessBackend(Engine.CPU, builder::build, MemoryBudget.forThisJvm());
        out.printf("%-26s %8s %8s %12s %12s %12s %12s%n", "CASE", "IN ELEMS", "OUT ELEM", "FULL CHECK",
                "FD EVAL", "BACKWARD ROW", "BARE EXEC");
        for (BenchCase c : BenchCase.DEFAULT) {
            OpSpec spec = parse(c.yaml());
            Timed timed = timeChecks(checker, spec);
            CheckResult last = timed.last();
            Map<String, INDArray> inputs = inputs(spec);
            double fd;
            double row;
            long outElems;
            try (Differentiable f = builder.build(spec, inputs)) {
                Map<String, INDArray> y = f.forward(inputs);
                outElems = y.get("0").length();
                fd = perCall(() -> f.forward(inputs));
                Map<String, INDArray> ct = Map.of("0", Nd4j.zeros(y.get("0").dataType(), y.get("0").shape()));
                ct.get("0").putScalar(0, 1.0);
                List<String> wrt = spec.check();
                row = perCall(() -> f.vjp(inputs, ct, wrt));
            }
            double bare = perCall(() -> bareExec(c, inputs));
            long inElems = spec.check().stream().mapToLong(n -> spec.input(n).length()).sum();
            out.printf("%-26s %8d %8d %9.1f ms %9.1f us %9.1f us %9.1f us%n", c.label(), inElems, outElems,
                    timed.medianMillis(), fd, row, bare);
            if (last.gradients().stream().anyMatch(g -> !g.verdict().passed())) {
                out.println("  (check did not pass: " + last.gradients().stream().map(GradientResult::verdict).toList()
                        + ")");
            }
        }
        out.println("FULL CHECK: median of " + repeats + " after one warm-up; FD EVAL: one forward through the"
                + " built SameDiff graph (2 per checked input element); BACKWARD ROW: one VJP (1 per output element);"
                + " BARE EXEC: Nd4j.exec of the native op alone.");
        out.println();
        modes(checker);
        out.flush();
    }

    /** The same op checked in each mode: what fast mode and sampling buy on larger inputs. */
    private void modes(Backend checker) throws InvalidSpecException {
        out.printf("%-26s %-26s %12s %12s%n", "CASE", "MODE", "CHECK", "EVALUATIONS");
        for (String[] c : MODE_CASES) {
            Timed timed = timeChecks(checker, parse(c[1]));
            CheckResult last = timed.last();
            long evaluations = last.gradients().stream().mapToLong(GradientResult::evaluations).sum();
            out.printf("%-26s %-26s %9.1f ms %12d%s%n", c[0], c[2], timed.medianMillis(), evaluations,
                    last.gradients().stream().allMatch(g -> g.verdict().passed()) ? "" : "  (did not pass)");
        }
        out.println("CHECK: median of " + repeats + " whole checks (sanity checks included); EVALUATIONS: forwards"
                + " plus backward passes over every row of the report.");
    }

    private record Timed(double medianMillis, CheckResult last) {}

    /** The median of {@code repeats} whole checks after one warm-up (class loading, JIT, SameDiff's first gradient). */
    private Timed timeChecks(Backend checker, OpSpec spec) {
        checker.run(spec);
        double[] millis = new double[repeats];
        CheckResult last = null;
        for (int i = 0; i < repeats; i++) {
            long t = System.nanoTime();
            last = checker.run(spec);
            millis[i] = (System.nanoTime() - t) / 1e6;
        }
        return new Timed(median(millis), last);
    }

    private static final String[][] MODE_CASES = {
        {"tanh 32x32", "op: tanh\ninputs: {x: {shape: [32, 32]}}\n", "full"},
        {"tanh 32x32", "op: tanh\nmode: fast\ninputs: {x: {shape: [32, 32]}}\n", "fast"},
        {"tanh 32x32", "op: tanh\nmax_elements: 64\ninputs: {x: {shape: [32, 32]}}\n", "full, max_elements 64"},
        {"tanh 64x64 (4096)", "op: tanh\nmode: fast\ninputs: {x: {shape: [64, 64]}}\n", "fast"},
        {"tanh 64x64 (4096)", "op: tanh\nmax_elements: 64\ninputs: {x: {shape: [64, 64]}}\n",
            "full, max_elements 64"},
        {"tanh 32x32", "op: tanh\nstencil: five-point\ninputs: {x: {shape: [32, 32]}}\n", "full, five-point"},
        {"matmul 32x32 @ 32x32", "op: matmul\ninputs: {a: {shape: [32, 32]}, b: {shape: [32, 32]}}\n", "full"},
        {"matmul 32x32 @ 32x32",
            "op: matmul\nmode: fast\ninputs: {a: {shape: [32, 32]}, b: {shape: [32, 32]}}\n", "fast"},
    };

    private static Map<String, INDArray> inputs(OpSpec spec) {
        Map<String, INDArray> in = new LinkedHashMap<>();
        for (InputSpec i : spec.inputs()) {
            in.put(i.name(), Nd4j.createFromArray(InputValues.generate(i, spec.seed())).reshape('c', i.shape()));
        }
        return in;
    }

    private static INDArray bareExec(BenchCase c, Map<String, INDArray> inputs) {
        DynamicCustomOp op = DynamicCustomOp.builder(c.nativeOp())
                .addInputs(inputs.values().toArray(new INDArray[0]))
                .addIntegerArguments(Arrays.stream(c.intArgs()).mapToInt(l -> (int) l).toArray())
                .build();
        return Nd4j.exec(op)[0];
    }

    /** Microseconds per call: enough calls for about 200 ms after a warm-up, to ride out timer noise. */
    private static double perCall(Runnable call) {
        for (int i = 0; i < 50; i++) {
            call.run();
        }
        int n = 0;
        long start = System.nanoTime();
        while (System.nanoTime() - start < 200_000_000L || n < 20) {
            call.run();
            n++;
        }
        return (System.nanoTime() - start) / 1e3 / n;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static OpSpec parse(String yaml) throws InvalidSpecException {
        return new SpecLoader().loadText("<bench>", "bench", yaml).get(0).specOrThrow();
    }
}
