package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The measurement behind docs/checking.md's float32 figures: for each op, 20 seeds in full and in fast mode, how
 * often the correct backward passes, how often a backward scaled by 1 + 1e-3 fails, and the scores (error ÷
 * allowance) of both. Too slow for every build (about a minute of CPU), so it runs only when asked:
 * {@code mvn -B -o test -Dtest=Float32Measurement -Dgradcheck.measure=float32}; the table goes to
 * target/float32-measurement.txt. NumericsRealOpTest holds the same claims on fewer ops and seeds in every build.
 */
@Tag("slow")
@EnabledIfSystemProperty(named = "gradcheck.measure", matches = "float32")
class Float32Measurement {

    private static final int SEEDS = 20;

    private static String unary(String op, String attrs) {
        return "op: " + op + "\n" + attrs
                + "inputs: {x: {shape: [3, 4], dtype: float32, init: {uniform: [-2, 2]}}}\n";
    }

    private static String layerNorm(String low, String high) {
        return """
                op: layer_norm
                attrs: {dimensions: [1]}
                inputs:
                  x: {shape: [3, 8], dtype: float32, init: {uniform: [%s, %s]}}
                  gain: {shape: [8], dtype: float32, init: {uniform: [0.5, 1.5]}}
                  bias: {shape: [8], dtype: float32}
                """.formatted(low, high);
    }

    /** The largest score among the gradient rows (full or fast) of a result. */
    private static double worstScore(CheckResult r) {
        double worst = 0;
        for (GradientResult g : r.gradients()) {
            if (g.kind() == CheckKind.JACOBIAN || g.kind() == CheckKind.FAST) {
                worst = Math.max(worst, g.maxScore());
            }
        }
        return worst;
    }

    @Test
    void float32AgainstItsMeasuredNoise() throws IOException {
        Map<String, String> ops = new LinkedHashMap<>();
        ops.put("tanh", unary("tanh", ""));
        ops.put("sigmoid", unary("sigmoid", ""));
        ops.put("softplus", unary("softplus", ""));
        ops.put("softmax", unary("softmax", "attrs: {dimension: 1}\n"));
        ops.put("matmul", "op: matmul\ninputs:\n  a: {shape: [3, 4], dtype: float32}\n"
                + "  b: {shape: [4, 2], dtype: float32}\n");
        ops.put("std", "op: std\nattrs: {dimensions: [1], biasCorrected: true}\n"
                + "inputs: {x: {shape: [3, 4], dtype: float32}}\n");
        ops.put("reduce_logsumexp", unary("reduce_logsumexp", ""));
        ops.put("layer_norm [-2, 2]", layerNorm("-2", "2"));
        ops.put("layer_norm [1, 1.01]", layerNorm("1", "1.01"));
        ops.put("layer_norm [1, 1.001]", layerNorm("1", "1.001"));
        List<String> table = new ArrayList<>();
        List<String> shortfalls = new ArrayList<>();
        for (Map.Entry<String, String> op : ops.entrySet()) {
            for (String mode : new String[] {"full", "fast"}) {
                int passed = 0;
                int caught = 0;
                double worstCorrect = 0;
                double leastWrong = Double.POSITIVE_INFINITY;
                for (long seed = 1; seed <= SEEDS; seed++) {
                    String spec = op.getValue() + "mode: " + mode + "\nseed: " + seed + "\n";
                    CheckResult correct = RealOps.check(spec);
                    CheckResult scaled = RealOps.checkCorrupted(spec, Functions.scaledBy(1 + 1e-3));
                    passed += correct.status() == Status.PASSED ? 1 : 0;
                    caught += scaled.status() == Status.FAILED ? 1 : 0;
                    worstCorrect = Math.max(worstCorrect, worstScore(correct));
                    leastWrong = Math.min(leastWrong, worstScore(scaled));
                }
                table.add(String.format(Locale.ROOT,
                        "%-22s %-4s correct passes %2d/%d (worst score %.2g)   x(1+1e-3) fails %2d/%d (lowest %.3g)",
                        op.getKey(), mode, passed, SEEDS, worstCorrect, caught, SEEDS, leastWrong));
                // rows 0.1% wide: float32 itself cannot see 0.1% there (docs/checking.md), only the false alarm counts
                if (passed < SEEDS || (caught < SEEDS && !op.getKey().endsWith("1.001]"))) {
                    shortfalls.add(table.get(table.size() - 1));
                }
            }
        }
        Files.createDirectories(Path.of("target"));
        Files.write(Path.of("target", "float32-measurement.txt"), table);
        assertEquals(List.of(), shortfalls);
    }
}
