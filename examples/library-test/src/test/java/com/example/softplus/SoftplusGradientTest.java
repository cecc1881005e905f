package com.example.softplus;

import static dev.gradcheck.api.GradAssertions.assertGradientsMatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.api.GradCheck;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** gradcheck used from a project's own tests: the Maven dependency, a check, an assertion. */
class SoftplusGradientTest {

    private static INDArray x() {
        return Nd4j.linspace(-2, 2, 12, DataType.DOUBLE).reshape(3, 4);
    }

    @Test
    void theBackwardMatchesTheNumericalGradient() {
        assertGradientsMatch(GradCheck.of(Softplus.correct()).input("x", x()));
    }

    @Test
    void aWrongBackwardFailsTheAssertionAndNamesTheInput() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> assertGradientsMatch(GradCheck.of(Softplus.buggy()).input("x", x())));
        assertTrue(e.getMessage().contains("dy/dx: mismatch"), e.getMessage());
    }

    @Test
    void anNd4jOpCanBeCheckedToo() {
        CheckResult r = GradCheck.ofNd4j("softplus").input("x", x()).check();
        assertEquals(Status.PASSED, r.status(), () -> String.valueOf(r.gradients()));
    }

    /** SameDiff prints "Added differentiated op ..." on System.out for every gradient it builds; not here. */
    @Test
    void aCheckLeavesTheTestsStdoutAlone() {
        PrintStream saved = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            System.out.println("the test's own line");
            GradCheck.ofNd4j("tanh").input("x", x()).check();
        } finally {
            System.setOut(saved);
        }
        assertEquals("the test's own line\n", captured.toString(StandardCharsets.UTF_8));
    }

    /**
     * The library brings none of the command line's own dependencies: no logging binding, no picocli or JLine (the
     * YAML reader comes along, for the JUnit Platform engine that runs spec files).
     */
    @Test
    void theCommandLinesDependenciesAreNotOnTheTestClassPath() {
        for (String cls : new String[] {"org.slf4j.impl.SimpleLogger", "picocli.CommandLine",
            "org.jline.terminal.Terminal"}) {
            assertThrows(ClassNotFoundException.class, () -> Class.forName(cls), cls + " is on the class path");
        }
    }
}
