package dev.gradcheck.check;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.MemoryBudget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The measurement behind docs/checking.md's fast-mode catch rates: tanh on n elements (uniform [−1, 1], float64),
 * its backward with one entry ×1.1 at random positions, judged in fast mode alone (a budget too small for the
 * full recheck keeps the fast row); and the correct backward over several seeds, with its top score. Runs only
 * when asked: {@code mvn -B -o test -Dtest=FastModeMeasurement -Dgradcheck.measure=fast}; the table goes to
 * target/fast-measurement.txt.
 */
@Tag("slow")
@EnabledIfSystemProperty(named = "gradcheck.measure", matches = "fast")
class FastModeMeasurement {

    /** Enough for fast mode's vectors, far too little for a full recheck. */
    private static final MemoryBudget NO_RECHECK = new MemoryBudget(1L << 30);

    private static String tanh(int side, long seed) {
        return "op: tanh\nmode: fast\nseed: " + seed + "\ninputs: {x: {shape: [" + side + ", " + side
                + "], init: {uniform: [-1, 1]}}}\n";
    }

    private static CheckResult fast(String yaml, UnaryOperator<INDArray> corrupt) {
        FunctionFactory f = (spec, inputs) -> corrupt == null ? RealOps.BUILDER.build(spec, inputs)
                : Functions.withBackward(RealOps.BUILDER.build(spec, inputs), corrupt);
        return new GradientChecker(f, "cpu", NO_RECHECK).check(Specs.parse(yaml));
    }

    private static double fastScore(CheckResult r) {
        return r.gradients().stream().filter(g -> g.kind() == CheckKind.FAST).mapToDouble(GradientResult::maxScore)
                .max().orElse(Double.NaN);
    }

    @Test
    void oneEntryAtSize() throws IOException {
        List<String> lines = new ArrayList<>();
        int positions = Integer.getInteger("gradcheck.positions", 200);
        for (int side : new int[] {256, 1000}) {
            int n = side * side;
            SplittableRandom rnd = new SplittableRandom(side);
            int caught = 0;
            for (int p = 0; p < positions; p++) {
                int at = rnd.nextInt(n);
                UnaryOperator<INDArray> oneEntry = g -> g.dup().putScalar(at, g.getDouble(at) * 1.1);
                caught += fast(tanh(side, 1), oneEntry).status() == Status.FAILED ? 1 : 0;
            }
            double top = 0;
            int passed = 0;
            for (long seed = 1; seed <= 10; seed++) {
                CheckResult r = fast(tanh(side, seed), null);
                passed += r.status() == Status.PASSED ? 1 : 0;
                top = Math.max(top, fastScore(r));
            }
            lines.add(String.format(Locale.ROOT, "tanh %d elements: one entry x1.1 caught at %d of %d positions"
                    + " (%.1f%%); correct backward passes %d of 10 seeds, top score %.3g", n, caught, positions,
                    100.0 * caught / positions, passed, top));
        }
        Path out = Path.of("target/fast-measurement.txt");
        Files.write(out, lines);
        lines.forEach(System.err::println);
    }
}
