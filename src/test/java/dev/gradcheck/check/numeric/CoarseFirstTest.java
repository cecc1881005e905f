package dev.gradcheck.check.numeric;

import static dev.gradcheck.check.numeric.MostPreciseStepTest.H;
import static dev.gradcheck.check.numeric.MostPreciseStepTest.NOISE;
import static dev.gradcheck.check.numeric.MostPreciseStepTest.passes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.numeric.MostPreciseStepTest.Cubic;
import dev.gradcheck.result.Stencil;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The larger rungs probed before h's half step where h's value is at hand ({@link CoarseFirst}): a line they
 * settle gets what probing h, 10·h and 100·h in turn gives, value and bound, and has no row at a kink at h; a kink
 * within a few h of x keeps its line out; a backward wrong by a little more than the tolerance still fails. Lines
 * are {@link MostPreciseStepTest}'s synthetic cubics, some rows with a rounding model far below their noise (an
 * output near 0 computed from larger terms), where 100·h's bound is above 10·h's rounding share.
 */
class CoarseFirstTest {

    /** What the rungs before h settle: by 100·h alone, with 10·h, or neither (both null). */
    private record Settled(MostPreciseStep.Estimate[] byCoarse, MostPreciseStep.Estimate[] withMiddle) {

        MostPreciseStep.Estimate[] either() {
            return byCoarse != null ? byCoarse : withMiddle;
        }
    }

    /** Each row's value at h from the points x ± h alone, as full mode's column pass keeps them, then the rungs. */
    private static Settled settled(Cubic line, double[] rounding) {
        int[] rows = MostPreciseStepTest.rowsOf(line);
        double[] plus = line.at(H);
        double[] minus = line.at(-H);
        double[] values = new double[rows.length];
        for (int r = 0; r < rows.length; r++) {
            values[r] = (plus[r] - minus[r]) / (2 * H);
        }
        MostPreciseStep.Coarse coarse = CoarseFirst.probe(line, H, MostPreciseStepTest.rows(line), 3,
                Stencil.CENTRAL);
        MostPreciseStep.Estimate[] byCoarse = CoarseFirst.settled(coarse, values, rounding);
        return new Settled(byCoarse, byCoarse != null ? null : CoarseFirst.settledWithMiddle(coarse, values, rounding));
    }

    /** Each row's estimate at h from a probe there, with its own rounding model. */
    private static MostPreciseStep.Estimate[] atH(Cubic line, double[] rounding) {
        int[] rows = MostPreciseStepTest.rowsOf(line);
        KinkDetector.Probe p = KinkDetector.probe(line, H, rows, new double[rows.length], 3, Stencil.CENTRAL);
        MostPreciseStep.Estimate[] at = new MostPreciseStep.Estimate[rows.length];
        for (int r = 0; r < rows.length; r++) {
            at[r] = MostPreciseStep.Estimate.of(p, r, rounding[r], H);
        }
        return at;
    }

    private static Cubic again(Cubic line) {
        return new Cubic(line.c, line.k, line.noise, line.jump, line.at);
    }

    /** A random line of 1 to 4 rows, gently or sharply curved, noisy, and in one of four at a kink near x. */
    private static Cubic randomLine(SplittableRandom random) {
        int n = 1 + random.nextInt(4);
        double[] c = new double[n];
        double[] k = new double[n];
        for (int j = 0; j < n; j++) {
            c[j] = random.nextDouble(-2, 2) * 1e-3;
            k[j] = Math.pow(10, random.nextDouble(-4, 3)) * (random.nextBoolean() ? 1 : -1);
        }
        double noise = Math.pow(10, random.nextDouble(-16, -14));
        boolean kink = random.nextInt(4) == 0;
        double at = kink ? random.nextDouble(-3, 3) * H : 0; // within a few h of x: where h's probe looks
        return new Cubic(c, k, noise, kink ? Math.pow(10, random.nextDouble(-6, -2)) : 0, at);
    }

    /** Each row's rounding model: the noise's, or in one row of three far below it. */
    private static double[] roundings(Cubic line, SplittableRandom random) {
        double[] rounding = new double[line.c.length];
        for (int r = 0; r < rounding.length; r++) {
            rounding[r] = 4 * line.noise / H * (random.nextInt(3) == 0 ? Math.pow(10, -random.nextDouble(0, 3)) : 1);
        }
        return rounding;
    }

    @Test
    void aLineTheLargerRungsSettleHasEveryRungsEstimatesAndNoKinkAtH() {
        SplittableRandom random = new SplittableRandom(4);
        int[] counts = new int[3]; // by 100·h alone, with 10·h, neither
        for (int line = 0; line < 600; line++) {
            Cubic drawn = randomLine(random);
            double[] rounding = roundings(drawn, random);
            Settled s = settled(drawn, rounding);
            counts[s.byCoarse() != null ? 0 : s.withMiddle() != null ? 1 : 2]++;
            if (s.either() != null) {
                MostPreciseStep.Estimate[] at = atH(again(drawn), rounding);
                assertTrue(Arrays.stream(at).allMatch(java.util.Objects::nonNull), "line " + line + ": no kink at h");
                assertArrayEquals(MostPreciseStepTest.everyRung(again(drawn), at), s.either(), "line " + line);
            }
        }
        assertTrue(counts[0] > 30 && counts[1] > 30 && counts[2] > 30, "each way taken: " + Arrays.toString(counts));
    }

    @Test
    void aKinkWithinAFewHOfXKeepsItsLineOut() {
        int seenAtH = 0;
        for (double jump : new double[] {1e-6, 1e-4, 1e-2}) {
            for (double at : new double[] {-2.5, -1, -0.7, -0.3, 0, 0.2, 0.5, 1, 1.7, 3}) {
                for (double understated : new double[] {1, 1e-3}) {
                    Cubic kinked = new Cubic(new double[] {1e-3}, new double[] {1e-3}, NOISE, jump, at * H);
                    double[] rounding = {4 * NOISE / H * understated};
                    if (atH(kinked, rounding)[0] == null) { // h's probe finds the kink: so must the larger rungs
                        seenAtH++;
                        assertNull(settled(again(kinked), rounding).either(), jump + " at " + at);
                    }
                }
            }
        }
        assertTrue(seenAtH > 10, "kinks that h's probe sees: " + seenAtH);
    }

    @Test
    void aBackwardWrongByALittleMoreThanTheToleranceFailsWhereOneHundredTimesHSettlesItsLine() {
        double[] rounding = {4 * NOISE / H};
        double wrong = 1e-3 * (1 + 1.5e-6); // 1.5 times what max_relative_error 1e-6 allows
        Cubic gentle = new Cubic(new double[] {1e-3}, new double[] {1e-3}, NOISE, 0, 0);
        assertTrue(passes(wrong, atH(gentle, rounding)[0]), "at h the error hides under the bound");
        MostPreciseStep.Estimate[] s = settled(again(gentle), rounding).byCoarse();
        assertTrue(s != null && s[0].step() == 100 * H, "settled at 100·h");
        assertTrue(passes(1e-3, s[0]), "the right backward passes");
        assertTrue(!passes(wrong, s[0]), "the wrong one fails");
    }

    @Test
    void aBackwardWrongWhereOnlyTenTimesHSeesItFailsWhereTenTimesHSettlesItsLine() {
        // truncation at 100·h (k·1e-8) hides the error there; at 10·h it is 1e-10 and rounding 1.2e-9
        Cubic curved = new Cubic(new double[] {1e-3}, new double[] {1}, NOISE, 0, 0);
        Settled s = settled(curved, new double[] {4 * NOISE / H});
        assertNull(s.byCoarse(), "100·h's bound is above 10·h's rounding share");
        assertTrue(s.withMiddle() != null, "settled with 10·h");
        assertEquals(10 * H, s.withMiddle()[0].step());
        assertTrue(passes(1e-3, s.withMiddle()[0]), "the right backward passes");
        assertTrue(!passes(1e-3 * (1 + 5e-6), s.withMiddle()[0]), "the wrong one fails");
    }

    /**
     * Agreement with h's value is no bound on a larger step's truncation: h's value is only known to within h's
     * rounding, so a truncation up to that (above what the tolerance allows an entry of 1e-3) agrees with it. An odd
     * cubic (no second difference at any step, as a linear forward) whose 100·h value is 1e-8 off, within h's
     * rounding model of its h value: every estimate the rungs give covers its own error, and the right backward
     * passes at it. Taking 100·h's value with its rounding share as its bound, on that agreement, fails it.
     */
    @Test
    void agreementWithHIsNoBoundOnOneHundredTimesHsTruncation() {
        Cubic odd = new Cubic(new double[] {1e-3}, new double[] {1}, NOISE, 0, 0);
        double[] rounding = {4 * NOISE / H};
        double atH = (odd.at(H)[0] - odd.at(-H)[0]) / (2 * H);
        double atHundred = (odd.at(100 * H)[0] - odd.at(-100 * H)[0]) / (200 * H);
        assertTrue(Math.abs(atHundred - atH) < rounding[0], "100·h agrees with h within h's rounding");
        assertTrue(Math.abs(atHundred - 1e-3) > 5e-9, "and is off by five times what the tolerance allows");
        assertTrue(!passes(1e-3, new MostPreciseStep.Estimate(atHundred, rounding[0] / 100, rounding[0] / 100,
                100 * H)), "100·h's value on its rounding share alone fails the right backward");
        MostPreciseStep.Estimate[] settled = settled(again(odd), rounding).either();
        MostPreciseStep.Estimate[] ladder = MostPreciseStepTest.everyRung(again(odd), atH(again(odd), rounding));
        for (MostPreciseStep.Estimate e : new MostPreciseStep.Estimate[] {settled[0], ladder[0]}) {
            assertTrue(Math.abs(e.value() - 1e-3) <= e.bound(), e + " covers its own error");
            assertTrue(passes(1e-3, e), "the right backward passes at " + e);
        }
    }
}
