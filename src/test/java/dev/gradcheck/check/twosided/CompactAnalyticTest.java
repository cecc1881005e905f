package dev.gradcheck.check.twosided;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.spec.Tolerance;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Analytic values held as floats ({@link CompactAnalytic}) and the entries judged on them ({@link RoundedMaxima})
 * against the same entries judged on their exact values: the same figures, to the last bit, where the rounding sits
 * right at a maximum.
 */
class CompactAnalyticTest {

    private static final Tolerance RULE = new Tolerance.MaxRelative(1e-6);

    @Test
    void aValueIsHeldAsAFloatOnlyWhereItsRoundingIsWithinTheResolutionAndItsIntervalHoldsIt() {
        CompactAnalytic c = new CompactAnalytic(8);
        double small = 1.2345678901234e-5;
        c.put(0, small, 1e-11); // ulp of the float ~1.7e-12: rounded
        c.put(1, small, 1e-13); // too coarse for this resolution: exact
        c.put(2, 0.25, 0); // a float equal to the value: kept as it is
        c.put(3, Double.NaN, 1);
        c.put(4, 1e300, 1e300); // no float holds it
        c.put(5, 1e-40, 1); // a subnormal float: exact
        assertTrue(c.rounding(0, c.get(0)) > 0);
        assertTrue(Math.abs(c.get(0) - small) <= c.rounding(0, c.get(0)), "within half an ulp of its float");
        assertEquals(small, c.get(1), 0);
        assertEquals(0, c.rounding(1, c.get(1)));
        assertEquals(0.25, c.get(2), 0);
        assertTrue(Double.isNaN(c.get(3)));
        assertEquals(0, c.rounding(3, c.get(3)));
        assertEquals(1e300, c.get(4), 0);
        assertEquals(1e-40, c.get(5), 0);
        c.putExact(0, small); // a value recomputed later is exact from then on
        assertEquals(small, c.get(0), 0);
        assertEquals(0, c.rounding(0, c.get(0)));
    }

    @Test
    void exactValuesAreFoundByRowWhateverOrderTheyCameIn() {
        ExactByRow exact = new ExactByRow(new int[] {0, 4, 4, 10, 12}); // rows 0..3, row 1 empty; extras from 12
        exact.put(1, 1.5); // row 0 in order
        exact.put(3, 3.5);
        exact.put(5, 5.5); // row 2
        exact.put(9, 9.5);
        exact.put(2, 2.5); // row 0 again: out of order, into the map
        exact.put(13, 13.5); // an extra
        exact.put(3, -3.5); // recomputed: the newer value wins
        exact.put(11, 11.5); // row 3, begun in order
        assertEquals(1.5, exact.get(1), 0);
        assertEquals(2.5, exact.get(2), 0);
        assertEquals(-3.5, exact.get(3), 0);
        assertEquals(5.5, exact.get(5), 0);
        assertEquals(9.5, exact.get(9), 0);
        assertEquals(11.5, exact.get(11), 0);
        assertEquals(13.5, exact.get(13), 0);
        assertEquals(8, exact.size());
        assertEquals(3, exact.others());
    }

    @Test
    void aBlockWhoseValuesMostlyNeedDoublesSaysItIsTooExact() {
        CompactAnalytic c = new CompactAnalytic(100_000);
        for (int k = 0; k < 100_000; k++) {
            c.put(k, 0.1 + k * 1e-9, 1e-20);
        }
        assertTrue(c.tooExact());
        CompactAnalytic fine = new CompactAnalytic(100_000);
        for (int k = 0; k < 100_000; k++) {
            fine.put(k, 0.1 + k * 1e-9, 1e-6);
        }
        assertFalse(fine.tooExact());
    }

    /**
     * Random entries agreeing to about 1e-12 around values of 1e-5, where a float's ulp (~1.7e-12) is as large as the
     * disagreements: every maximum is within the rounding of dozens of entries. Also a right entry off by one ulp
     * of its float, one off just below the tolerance, and exact entries among them.
     */
    @Test
    void roundedEntriesGiveTheExactTallyToTheLastBitWhereTheRoundingSitsAtTheMaximum() {
        Random random = new Random(7);
        int n = 50_000;
        JacobianComparison.Tally exact = new JacobianComparison.Tally(RULE);
        JacobianComparison.Tally compact = new JacobianComparison.Tally(RULE);
        RoundedMaxima rounded = new RoundedMaxima(RULE, compact);
        double[] a = new double[n];
        for (int k = 0; k < n; k++) {
            a[k] = (random.nextDouble() - 0.5) * 4e-5;
            double numerical = a[k] + random.nextGaussian() * 1e-12;
            if (k == 777) {
                numerical = a[k] + Math.ulp((float) a[k]); // off by its float's rounding
            } else if (k == 4242) {
                numerical = a[k] + 0.4e-6; // near the tolerance, still let through: the largest score
            }
            double error = 1e-12;
            exact.add(k / 100, k % 100, a[k], numerical, error);
            float f = (float) a[k];
            if (k % 10 == 0) { // held exactly
                compact.add(k / 100, k % 100, a[k], numerical, error);
                rounded.exact(a[k], numerical, error);
            } else {
                rounded.rounded(k / 100, k % 100, f, Math.ulp(f) / 2, numerical, error);
            }
        }
        List<RoundedMaxima.Candidate> left = rounded.finish();
        assertFalse(left.isEmpty(), "some rounded entry is within its rounding of a maximum");
        assertTrue(left.size() < n / 100, left.size() + " entries needed their exact values");
        for (RoundedMaxima.Candidate c : left) {
            rounded.exactly(c, a[c.row() * 100 + c.col()]);
        }
        assertSameRow(exact, compact);
    }

    @Test
    void withoutTheExactValuesOfTheCandidatesTheFiguresWouldDiffer() {
        // the test above must be able to fail: the candidates' floats in place of their exact values change a figure
        Random random = new Random(7);
        int n = 5_000;
        JacobianComparison.Tally exact = new JacobianComparison.Tally(RULE);
        JacobianComparison.Tally floats = new JacobianComparison.Tally(RULE);
        for (int k = 0; k < n; k++) {
            double a = (random.nextDouble() - 0.5) * 4e-5;
            double numerical = a + random.nextGaussian() * 1e-12;
            exact.add(k / 100, k % 100, a, numerical, 1e-12);
            floats.add(k / 100, k % 100, (float) a, numerical, 1e-12);
        }
        JacobianComparison.Row e = row(exact);
        JacobianComparison.Row f = row(floats);
        assertTrue(e.maxAbs() != f.maxAbs() || e.maxScore() != f.maxScore());
    }

    private static JacobianComparison.Row row(JacobianComparison.Tally t) {
        return t.row(new long[] {1000}, new long[] {100},
                new JacobianComparison.Criteria(RULE, 1e-6, 1));
    }

    private static void assertSameRow(JacobianComparison.Tally exact, JacobianComparison.Tally compact) {
        JacobianComparison.Row e = row(exact);
        JacobianComparison.Row c = row(compact);
        assertEquals(e.verdict(), c.verdict());
        assertEquals(e.maxAbs(), c.maxAbs(), 0);
        assertEquals(e.maxRel(), c.maxRel(), 0);
        assertEquals(e.maxScore(), c.maxScore(), 0);
        assertArrayEquals(e.worst().outputIndex(), c.worst().outputIndex());
        assertArrayEquals(e.worst().inputIndex(), c.worst().inputIndex());
        assertEquals(e.worst().analytic(), c.worst().analytic(), 0);
        assertEquals(e.worst().numerical(), c.worst().numerical(), 0);
        assertEquals(e.withinError(), c.withinError());
        assertEquals(exact.failing(), compact.failing());
    }
}
