package dev.gradcheck.check;

import dev.gradcheck.check.colouring.CompressedJacobiansTest;
import dev.gradcheck.check.colouring.CompressedJacobiansTest.Corruption;
import dev.gradcheck.result.CheckKind;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The measurement behind docs/benchmarks-scale.md's fast-mode narrowing row: ResNet-18's layer, conv2d SAME on x
 * [1,64,56,56] with w [3,3,64,64], float64, fast mode, seed 7, one entry of x's block ×1.5 at a random position
 * (an output and the input under its kernel's centre, in another channel), the same for w's block, and a backward
 * wrong everywhere (×(1 + 1e-3)), where narrowing stops at its limit. Runs only
 * when asked: {@code mvn -B -o test -Dtest=FastNarrowingMeasurement -Dgradcheck.measure=narrowing}, or as one JVM
 * of its own under {@code /usr/bin/time -v} through {@link #main} (the test classpath); the rows go to
 * target/narrowing-measurement.txt.
 */
@Tag("slow")
@EnabledIfSystemProperty(named = "gradcheck.measure", matches = "narrowing")
public class FastNarrowingMeasurement {

    private static final String RESNET_LAYER = """
            op: conv2d
            mode: fast
            seed: 7
            attrs: {kH: 3, kW: 3, sH: 1, sW: 1, pH: 0, pW: 0, dH: 1, dW: 1, isSameMode: 1, isNCHW: 0}
            inputs:
              x: {shape: [1, 64, 56, 56], init: {uniform: [-1, 1]}}
              w: {shape: [3, 3, 64, 64], init: {uniform: [-1, 1]}}
            """;

    /** The measurement alone, in a JVM of its own (so that {@code time} sees the process that checks). */
    public static void main(String[] args) throws IOException {
        new FastNarrowingMeasurement().oneWrongEntryInTheResNetLayer();
    }

    @Test
    void oneWrongEntryInTheResNetLayer() throws IOException {
        SplittableRandom random = new SplittableRandom(34);
        int pixel = random.nextInt(56 * 56);
        int out = random.nextInt(64) * 56 * 56 + pixel;
        int inX = random.nextInt(64) * 56 * 56 + pixel;
        // w [kH, kW, iC, oC]: the kernel's centre (1, 1) from input channel c to output channel o
        int inW = ((1 * 3 + 1) * 64 + random.nextInt(64)) * 64 + out / (56 * 56);
        List<String> lines = new ArrayList<>();
        lines.add(measure("x", CompressedJacobiansTest.oneElementOff("x", "0", out, inX, 0.5)));
        lines.add(measure("w", CompressedJacobiansTest.oneElementOff("w", "0", out, inW, 0.5)));
        lines.add(measure("every entry (x(1 + 1e-3))", f -> Functions.withBackward(f, Functions.scaledBy(1 + 1e-3))));
        Files.write(Path.of("target", "narrowing-measurement.txt"), lines);
        lines.forEach(System.out::println);
    }

    private static String measure(String input, Corruption wrong) {
        long start = System.nanoTime();
        CheckResult r = CompressedJacobiansTest.check(RESNET_LAYER, wrong);
        double seconds = (System.nanoTime() - start) / 1e9;
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "wrong entry in %s: %s, %.1f s whole check",
                input, r.status(), seconds));
        for (GradientResult g : r.gradients()) {
            if (g.kind() == CheckKind.FAST || g.kind() == CheckKind.JACOBIAN) {
                sb.append(String.format(Locale.ROOT, "%n  %s d%s/d%s %s, %d evaluations, %.1f s: %s", g.kind(),
                        g.output(), g.input(), g.verdict(), g.evaluations(), g.seconds(), g.note()));
            }
        }
        return sb.toString();
    }
}
