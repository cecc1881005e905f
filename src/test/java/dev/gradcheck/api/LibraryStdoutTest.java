package dev.gradcheck.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A check from a user's test keeps the test's stdout as the test left it: SameDiff prints "Added differentiated
 * op ..." with System.out.println for every gradient it builds (shown here, unguarded), and GradCheck filters
 * those lines while it runs, then gives System.out back.
 */
class LibraryStdoutTest {

    private static String capture(Runnable work) {
        PrintStream saved = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream mine = new PrintStream(captured, true, StandardCharsets.UTF_8);
        System.setOut(mine);
        try {
            work.run();
            assertSame(mine, System.out, "the caller's System.out is given back");
        } finally {
            System.setOut(saved);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    @Test
    void sameDiffAloneWritesOnStdout() {
        String out = capture(() -> {
            SameDiff sd = SameDiff.create();
            SDVariable x = sd.var("x", Nd4j.linspace(-1, 1, 4, DataType.DOUBLE));
            sd.math().tanh(x).sum().markAsLoss();
            sd.calculateGradients(null, "x");
        });
        assertTrue(out.contains("Added differentiated op"), "the control: " + out);
    }

    @Test
    void aCheckLeavesOnlyWhatTheTestItselfPrinted() {
        String out = capture(() -> {
            System.out.println("before");
            GradCheck.ofNd4j("tanh").input("x", Nd4j.linspace(-1, 1, 4, DataType.DOUBLE)).check();
            GradCheck.of(Mul.correct()).input("x", Nd4j.rand(DataType.DOUBLE, 2)).input("w", Nd4j.rand(DataType.DOUBLE, 2))
                    .check();
            System.out.println("after");
        });
        assertEquals("before\nafter\n", out);
    }
}
