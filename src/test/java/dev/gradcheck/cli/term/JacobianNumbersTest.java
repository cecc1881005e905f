package dev.gradcheck.cli.term;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.BlockJacobians;
import org.junit.jupiter.api.Test;

/**
 * The shell's {@code jacobians} numbers (issue 26, item 9): a mismatch at atol 1e-12 shows in its digits, and the
 * columns follow the width.
 */
class JacobianNumbersTest {

    private static BlockJacobians block(double[][] numerical, double[][] analytic, String... marks) {
        return new BlockJacobians(new long[] {numerical.length}, new long[] {numerical[0].length}, null, null,
                numerical, analytic, marks);
    }

    @Test
    void aMismatchBelowFiveDigitsGetsTheDigitsThatShowIt() {
        // 0.5 against 0.5 + 3e-12: equal to 11 significant digits, apart at 12
        BlockJacobians b = block(new double[][] {{0.5, 1.0}}, new double[][] {{0.5 + 3e-12, 1.0}}, "X.");
        int digits = JacobianNumbers.digits(b);
        assertEquals(12, digits);
        assertNotEquals(JacobianNumbers.format(0.5, digits), JacobianNumbers.format(0.5 + 3e-12, digits));
        assertEquals(JacobianNumbers.format(0.5, digits - 1), JacobianNumbers.format(0.5 + 3e-12, digits - 1));
    }

    @Test
    void agreeingOrCoarseMismatchesKeepFiveDigits() {
        assertEquals(JacobianNumbers.MIN_DIGITS, JacobianNumbers.digits(block(new double[][] {{-2.0}},
                new double[][] {{-0.25}}, "X")));
        // equal but not a mismatch (a kink's, say): no digits spent on it
        assertEquals(JacobianNumbers.MIN_DIGITS, JacobianNumbers.digits(block(new double[][] {{1.0}},
                new double[][] {{1.0 + 1e-15}}, "k")));
    }

    @Test
    void theColumnsShownAreThoseTheWidthHolds() {
        double[][] row = new double[][] {new double[20]};
        BlockJacobians b = block(row, row, ".".repeat(20));
        String at80 = printed(b, 80);
        String at200 = printed(b, 200);
        // a cell is 13 characters at five digits: (80 - 3) / 13 = 5, (200 - 3) / 13 = 15
        assertTrue(at80.contains("numerical (first 1 x 5 of 1 x 20)"), at80);
        assertTrue(at200.contains("numerical (first 1 x 15 of 1 x 20)"), at200);
        assertTrue(at80.lines().allMatch(l -> l.length() <= 80), at80);
    }

    private static String printed(BlockJacobians b, int width) {
        java.io.StringWriter s = new java.io.StringWriter();
        JacobianNumbers.printBlock("t", "d0/dx", "", b, new java.io.PrintWriter(s), width);
        return s.toString();
    }
}
