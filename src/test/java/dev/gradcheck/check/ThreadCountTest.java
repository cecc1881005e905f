package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.jacobian.ParallelLines;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A check gives the same rows, to the bit, on one thread and on several: real ops from specs/ (compressed and dense,
 * passing and failing, a graph), with helper threads made to join after the first line and take the rest, so the
 * several-thread runs really spread the columns, rows and groups over function copies.
 */
class ThreadCountTest {

    private static final Nd4jOpBuilder BUILDER = new Nd4jOpBuilder(OpCatalog.nd4j());
    private long startAfter;

    @BeforeEach
    void helpersJoinAtOnceAndTakeTheRest() {
        startAfter = ParallelLines.startAfterNanos;
        ParallelLines.startAfterNanos = 0;
        ParallelLines.callerLeavesTasksToHelpers = true;
    }

    @AfterEach
    void restore() {
        ParallelLines.startAfterNanos = startAfter;
        ParallelLines.callerLeavesTasksToHelpers = false;
    }

    static Stream<Arguments> specs() {
        return Stream.of(
                Arguments.of("specs/activations/softmax.yaml", "softmax-rows"),
                Arguments.of("specs/linalg/matmul.yaml", "matmul-transpose-x"),
                Arguments.of("specs/conv/conv.yaml", "conv2d-nchw-valid"),
                Arguments.of("specs/graphs/mlp.yaml", "mlp-layer-tanh"),
                Arguments.of("specs/reductions/cumulative.yaml", "cumsum-axis1"), // ND4J's wrong backward: FAILED
                Arguments.of("specs/binary/arithmetic.yaml", "multiply-broadcast-channel"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("specs")
    void oneThreadAndSeveralGiveTheSameRows(String file, String name) {
        LoadedSpec loaded = new SpecLoader().load(Path.of(file)).stream().filter(s -> s.name().equals(name))
                .findFirst().orElseThrow();
        OpSpec spec = Specs.valid(loaded);
        for (boolean compress : new boolean[] {true, false}) {
            OpSpec s = spec.withOptions(spec.options().withCompress(compress));
            CheckResult one = check(s, 1);
            long before = ParallelLines.helperTasksInThisJvm();
            CheckResult several = check(s, 3);
            assertTrue(ParallelLines.helperTasksInThisJvm() > before, "helper threads evaluated lines");
            assertEquals(one.status(), several.status(), name);
            assertEquals(one.message(), several.message(), name);
            assertEquals(one.gradients().size(), several.gradients().size(), name);
            for (int k = 0; k < one.gradients().size(); k++) {
                assertEquals(withoutTime(one.gradients().get(k)), withoutTime(several.gradients().get(k)),
                        name + (compress ? "" : ", compress: false") + ", row " + k);
            }
        }
    }

    private static CheckResult check(OpSpec spec, int threads) {
        return new GradientChecker(BUILDER::build, "cpu").check(spec.withOptions(spec.options().withThreads(threads)));
    }

    /** Every figure of a row but its time, exactly (doubles as their bits, indices as lists). */
    private static List<Object> withoutTime(GradientResult g) {
        return Arrays.asList(g.output(), g.input(), g.kind(), g.order(), g.verdict(),
                Double.doubleToRawLongBits(g.maxAbsError()), Double.doubleToRawLongBits(g.maxRelError()),
                Double.doubleToRawLongBits(g.maxScore()),
                g.worst() == null ? null : Arrays.toString(g.worst().outputIndex()),
                g.worst() == null ? null : Arrays.toString(g.worst().inputIndex()),
                g.worst() == null ? null : Double.doubleToRawLongBits(g.worst().analytic()),
                g.worst() == null ? null : Double.doubleToRawLongBits(g.worst().numerical()),
                g.evaluations(), g.note(), g.sampling());
    }
}
