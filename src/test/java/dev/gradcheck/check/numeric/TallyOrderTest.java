package dev.gradcheck.check.numeric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.Tolerance;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A block's figures do not depend on the order its entries come in: the two-sided path judges most entries as its
 * column pass reaches them, a column at a time, and the rest at the report, and must name the entry a row-major
 * dense comparison names, with the same counts, wrong entries included.
 */
class TallyOrderTest {

    private static final Tolerance STRICT = new Tolerance.MaxRelative(1e-6);
    private static final long[] OUT = {6};
    private static final long[] IN = {5};
    private static final JacobianComparison.Criteria CRITERIA = new JacobianComparison.Criteria(STRICT, 1e-6, 1);

    /** One entry of a block: position, both values, the numerical side's bound. */
    private record Entry(int row, int col, double a, double n, double error) {}

    private static List<Entry> block(double[][] analytic, double[][] numerical) {
        List<Entry> entries = new ArrayList<>();
        for (int r = 0; r < analytic.length; r++) {
            for (int c = 0; c < analytic[r].length; c++) {
                entries.add(new Entry(r, c, analytic[r][c], numerical[r][c], 1e-12));
            }
        }
        return entries;
    }

    private static JacobianComparison.Tally tally(List<Entry> entries) {
        JacobianComparison.Tally t = new JacobianComparison.Tally(STRICT);
        entries.forEach(e -> t.add(e.row(), e.col(), e.a(), e.n(), e.error()));
        return t;
    }

    private static void assertSameRow(List<Entry> rowMajor, List<Entry> other) {
        JacobianComparison.Tally a = tally(rowMajor);
        JacobianComparison.Tally b = tally(other);
        JacobianComparison.Row x = a.row(OUT, IN, CRITERIA);
        JacobianComparison.Row y = b.row(OUT, IN, CRITERIA);
        assertEquals(x.verdict(), y.verdict());
        assertEquals(x.maxScore(), y.maxScore());
        assertEquals(x.maxAbs(), y.maxAbs());
        assertArrayEquals(x.worst().outputIndex(), y.worst().outputIndex());
        assertArrayEquals(x.worst().inputIndex(), y.worst().inputIndex());
        assertEquals(x.worst().numerical(), y.worst().numerical());
        assertEquals(a.failing(), b.failing());
    }

    @Test
    void twoWrongEntriesOfEqualScoreAreNamedAsRowMajorOrderNamesThem() {
        double[][] analytic = new double[6][5];
        double[][] numerical = new double[6][5];
        SplittableRandom rnd = new SplittableRandom(3);
        for (int r = 0; r < 6; r++) {
            for (int c = 0; c < 5; c++) {
                analytic[r][c] = numerical[r][c] = rnd.nextDouble(-1, 1);
            }
        }
        numerical[4][1] = numerical[2][3] = 1; // both 10% off: the same score, the earlier one named
        analytic[4][1] = analytic[2][3] = 1.1;
        List<Entry> rowMajor = block(analytic, numerical);
        JacobianComparison.Row row = tally(rowMajor).row(OUT, IN, CRITERIA);
        assertEquals(Verdict.MISMATCH, row.verdict());
        assertArrayEquals(new long[] {2}, row.worst().outputIndex(), "the first of equal scores, row-major");
        assertArrayEquals(new long[] {3}, row.worst().inputIndex());
        assertEquals(2, tally(rowMajor).failing());
        List<Entry> reversed = new ArrayList<>(rowMajor);
        Collections.reverse(reversed);
        assertSameRow(rowMajor, reversed);
        List<Entry> shuffled = new ArrayList<>(rowMajor);
        Collections.shuffle(shuffled, new java.util.Random(5));
        assertSameRow(rowMajor, shuffled);
    }

    @Test
    void aBlockOfZerosNamesItsFirstEntryAndANonFiniteEntryTheFirstOfThem() {
        double[][] zeros = new double[6][5];
        List<Entry> rowMajor = block(zeros, zeros);
        List<Entry> reversed = new ArrayList<>(rowMajor);
        Collections.reverse(reversed);
        assertSameRow(rowMajor, reversed);
        assertArrayEquals(new long[] {0}, tally(reversed).row(OUT, IN, CRITERIA).worst().outputIndex());
        double[][] nan = new double[6][5];
        nan[3][2] = Double.NaN;
        nan[1][4] = Double.NaN;
        List<Entry> withNaN = block(nan, zeros);
        List<Entry> backwards = new ArrayList<>(withNaN);
        Collections.reverse(backwards);
        JacobianComparison.Row row = tally(backwards).row(OUT, IN, CRITERIA);
        assertEquals(Verdict.NON_FINITE, row.verdict());
        assertArrayEquals(new long[] {1}, row.worst().outputIndex(), "the first non-finite entry, row-major");
        assertArrayEquals(new long[] {4}, row.worst().inputIndex());
        assertSameRow(withNaN, backwards);
    }
}
