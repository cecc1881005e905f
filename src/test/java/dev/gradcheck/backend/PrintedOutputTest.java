package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a worker printed becomes the check's log, and libnd4j's words complete an operator error's message. */
class PrintedOutputTest {

    /** As a worker prints them for matmul [3,2]·[3,4]: libnd4j's line, then ND4J's log line (Java's). */
    private static final List<PrintedLine> MATMUL = List.of(
            new PrintedLine("ShapeUtils::evalShapeForMatmul static method: input shapes are inconsistent: xDim 2 != yDim 3",
                    false),
            new PrintedLine("ERROR NativeOpExecutioner - Failed to calculate output shapes for op matmul.", true));

    @Test
    void anOperatorErrorGetsTheNativeCause() {
        CheckResult error = result(Status.ERROR,
                "RuntimeException: Op matmul with name matmul failed to execute. Here is the error from c++:");
        CheckResult r = PrintedOutput.attach(error, MATMUL);
        assertEquals("RuntimeException: Op matmul with name matmul failed to execute. Here is the error from c++:\n"
                + "libnd4j: ShapeUtils::evalShapeForMatmul static method: input shapes are inconsistent: xDim 2 != yDim 3",
                r.message());
        assertEquals(List.of(MATMUL.get(0).text(), MATMUL.get(1).text()), r.log());
    }

    @Test
    void anInvalidSpecsProblemKeepsOneLineWithTheNativeCauseOnIt() {
        // every problem line stays file:line:col: message (docs/guarantees.md), in check's report and validate's
        CheckResult invalid = result(Status.INVALID, "s.yaml:2:5: matmul does not accept inputs a [3, 2], b [3, 4]");
        assertEquals("s.yaml:2:5: matmul does not accept inputs a [3, 2], b [3, 4]; libnd4j: ShapeUtils::"
                + "evalShapeForMatmul static method: input shapes are inconsistent: xDim 2 != yDim 3",
                PrintedOutput.attach(invalid, MATMUL).message());
    }

    @Test
    void aLocationHeaderFoldsIntoTheLineItIntroduces() {
        List<PrintedLine> softmax = List.of(
                new PrintedLine("Error at [/home/runner/work/deeplearning4j/libnd4j/include/ops/declarable/generic/nn/"
                        + "softmax.cpp:47:0]:", false),
                new PrintedLine("SOFTMAX OP: the value of input integer parameter (dimension) must be less than input"
                        + " array rank 2, but got dimension = 5 instead !", false));
        assertEquals(List.of("SOFTMAX OP: the value of input integer parameter (dimension) must be less than input"
                + " array rank 2, but got dimension = 5 instead ! (softmax.cpp:47)"), PrintedOutput.nativeWords(softmax));
    }

    @Test
    void onlyTheLastFewDistinctNativeLinesAndNoJavaOnes() {
        List<PrintedLine> many = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            many.add(new PrintedLine("native " + i, false));
            many.add(new PrintedLine("native " + i, false));
            many.add(new PrintedLine("WARN Java " + i, true));
        }
        assertEquals(List.of("native 3", "native 4", "native 5"), PrintedOutput.nativeWords(many));
    }

    @Test
    void aPassOrAFailureKeepsItsMessageButGetsItsLog() {
        CheckResult passed = PrintedOutput.attach(result(Status.PASSED, null), MATMUL);
        assertEquals(null, passed.message());
        assertEquals(2, passed.log().size());
        CheckResult failed = PrintedOutput.attach(result(Status.FAILED, "mismatch"), MATMUL);
        assertEquals("mismatch", failed.message());
        CheckResult expected = PrintedOutput.attach(result(Status.EXPECTED_ERROR, "threw"), MATMUL);
        assertTrue(expected.message().contains("libnd4j: ShapeUtils"), expected.message());
    }

    @Test
    void nothingPrintedChangesNothing() {
        CheckResult error = result(Status.ERROR, "threw");
        assertEquals(error, PrintedOutput.attach(error, List.of()));
    }

    private static CheckResult result(Status status, String message) {
        return new CheckResult("s", "s.yaml:1:1", "matmul", "cpu", "float64", status, "pass", null, message,
                List.of(), "max_relative_error=1e-06", 1e-6, 0.1);
    }
}
