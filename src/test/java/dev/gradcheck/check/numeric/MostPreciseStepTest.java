package dev.gradcheck.check.numeric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.Stencil;
import dev.gradcheck.spec.Tolerance;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The most precise step probes 10·h only where it could be chosen: where every row's estimate at 100·h is
 * consistent and bounded below what any estimate at 10·h can be, 10·h is not evaluated, and every value, bound and
 * verdict is what probing h, 10·h and 100·h in turn gives. Lines here are synthetic: each output a cubic in t
 * with rounding noise that depends on t alone (as a deterministic forward's does), and sometimes a kink.
 */
class MostPreciseStepTest {

    static final double H = 1e-6;

    /** The rounding model at h for the lines' largest |y|, 3: h's least allowance in judging another step. */
    private static final double FLOOR = NumericalError.rounding(Stencil.CENTRAL, 3, H);

    /** Outputs y_j(t) = y0 + c·t + k·t³ + η·noise(t) + jump·|t − at|, counting its evaluations. */
    static final class Cubic implements KinkDetector.Line {
        final double[] c;
        final double[] k;
        final double noise;
        final double jump;
        final double at;
        final java.util.List<Double> calls = new java.util.ArrayList<>();

        Cubic(double[] c, double[] k, double noise, double jump, double at) {
            this.c = c;
            this.k = k;
            this.noise = noise;
            this.jump = jump;
            this.at = at;
        }

        @Override
        public double[] at(double t) {
            calls.add(t);
            double[] y = new double[c.length];
            for (int j = 0; j < y.length; j++) {
                long bits = Double.doubleToLongBits(t) * 0x9E3779B97F4A7C15L + j;
                double u = new SplittableRandom(bits).nextDouble(-1, 1);
                y[j] = 3 + c[j] * t + k[j] * t * t * t + noise * u + jump * Math.abs(t - at);
            }
            return y;
        }
    }

    /** The choice, and the steps it made its probes with (a probe at k·h evaluates ±k·h/2 whatever else it does). */
    private record Chosen(MostPreciseStep.Estimate[] best, java.util.List<Double> calls) {

        boolean probed(double k) {
            return calls.contains(k * H / 2) && calls.contains(-k * H / 2);
        }
    }

    /** The rows' estimates at h from a probe there, with the rounding model given, then the choice and its calls. */
    private static MostPreciseStep.Estimate[] atH(Cubic line, double rounding) {
        int[] rows = rowsOf(line);
        KinkDetector.Probe p = KinkDetector.probe(line, H, rows, new double[rows.length], 3, Stencil.CENTRAL);
        MostPreciseStep.Estimate[] at = new MostPreciseStep.Estimate[rows.length];
        for (int r = 0; r < rows.length; r++) {
            at[r] = MostPreciseStep.Estimate.of(p, r, rounding, H);
        }
        return at;
    }

    private static Chosen choose(Cubic line, double rounding) {
        MostPreciseStep.Estimate[] at = atH(line, rounding);
        int before = line.calls.size();
        MostPreciseStep.Estimate[] best = MostPreciseStep.choose(line, H, rows(line), at, 3, Stencil.CENTRAL);
        return new Chosen(best, java.util.List.copyOf(line.calls.subList(before, line.calls.size())));
    }

    static int[] rowsOf(Cubic line) {
        return java.util.stream.IntStream.range(0, line.c.length).toArray();
    }

    static MostPreciseStep.Rows rows(Cubic line) {
        return new MostPreciseStep.Rows(rowsOf(line), new double[line.c.length]);
    }

    /** What probing h, 10·h and 100·h in turn, then h/10 where truncation is left, chooses (the rule as written). */
    static MostPreciseStep.Estimate[] everyRung(Cubic line, MostPreciseStep.Estimate[] atH) {
        MostPreciseStep.Estimate[] best = atH.clone();
        for (double k : new double[] {10, 100}) {
            take(line, k, atH, best);
        }
        if (Arrays.stream(best).anyMatch(e -> e != null && e.bound() > 100 * e.rounding())) {
            take(line, 0.1, atH, best);
        }
        return best;
    }

    private static void take(Cubic line, double k, MostPreciseStep.Estimate[] atH, MostPreciseStep.Estimate[] best) {
        int[] rows = rowsOf(line);
        KinkDetector.Probe p = KinkDetector.probe(line, k * H, rows, new double[rows.length], 3, Stencil.CENTRAL);
        for (int r = 0; r < best.length; r++) {
            MostPreciseStep.Estimate e = best[r] == null ? null
                    : MostPreciseStep.Estimate.of(p, r, atH[r].rounding() / k, k * H);
            if (e != null && e.bound() < best[r].bound()
                    && Math.abs(e.value() - atH[r].value()) <= e.bound() + Math.max(atH[r].bound(), FLOOR)) {
                best[r] = e;
            }
        }
    }

    @Test
    void skippingTenTimesHChangesNoEstimateOfAnyRow() {
        SplittableRandom random = new SplittableRandom(34);
        int skipped = 0;
        int probed = 0;
        for (int line = 0; line < 300; line++) {
            int n = 1 + random.nextInt(4);
            double[] c = new double[n];
            double[] k = new double[n];
            for (int j = 0; j < n; j++) {
                c[j] = random.nextDouble(-2, 2) * 1e-3;
                k[j] = Math.pow(10, random.nextDouble(-4, 3)) * (random.nextBoolean() ? 1 : -1);
            }
            double noise = Math.pow(10, random.nextDouble(-16, -14));
            boolean kink = random.nextInt(5) == 0;
            double jump = kink ? 1e-3 : 0;
            double at = kink ? random.nextDouble(-300, 300) * H : 0;
            double rounding = 4 * noise / H;
            Chosen chosen = choose(new Cubic(c, k, noise, jump, at), rounding);
            Cubic again = new Cubic(c, k, noise, jump, at);
            MostPreciseStep.Estimate[] expected = everyRung(again, atH(again, rounding));
            assertArrayEquals(expected, chosen.best(), "line " + line);
            if (!chosen.probed(10)) {
                skipped++;
            } else {
                probed++;
            }
        }
        assertTrue(skipped > 30 && probed > 30, "both ways taken: " + skipped + " skipped, " + probed + " probed");
    }

    /** Rounding at h (bound 1.2e-8) hides an error of 5e-9 on a derivative of 1e-3, where 1e-9 is allowed. */
    static final double NOISE = 3e-15;
    private static final Tolerance RULE = new Tolerance.AllClose(0, 1e-6);

    static boolean passes(double analytic, MostPreciseStep.Estimate e) {
        return JacobianComparison.score(RULE, analytic, e.value(), e.bound()) <= 1;
    }

    @Test
    void aBackwardWrongUnderHsBoundStillFailsWhereOneHundredTimesHDecidesAlone() {
        Cubic gentle = new Cubic(new double[] {1e-3}, new double[] {1e-3}, NOISE, 0, 0);
        double rounding = 4 * NOISE / H;
        assertTrue(passes(1e-3 * (1 + 5e-6), atH(gentle, rounding)[0]), "at h the error hides under the bound");
        Chosen chosen = choose(gentle, rounding);
        assertTrue(chosen.probed(100) && !chosen.probed(10), "10·h cannot be chosen: not evaluated");
        assertEquals(100 * H, chosen.best()[0].step());
        assertTrue(passes(1e-3, chosen.best()[0]), "the right backward passes");
        assertTrue(!passes(1e-3 * (1 + 5e-6), chosen.best()[0]), "the wrong one fails");
    }

    @Test
    void aBackwardWrongWhereOnlyTenTimesHSeesItStillFails() {
        // truncation at 100·h (k·1e-8) hides the error there; at 10·h it is 1e-10 and rounding 1.2e-9
        Cubic curved = new Cubic(new double[] {1e-3}, new double[] {1}, NOISE, 0, 0);
        double rounding = 4 * NOISE / H;
        Chosen chosen = choose(curved, rounding);
        assertTrue(chosen.probed(10), "10·h could be chosen: evaluated");
        assertEquals(10 * H, chosen.best()[0].step());
        assertTrue(passes(1e-3, chosen.best()[0]), "the right backward passes");
        assertTrue(!passes(1e-3 * (1 + 5e-6), chosen.best()[0]), "the wrong one fails");
        Cubic again = new Cubic(new double[] {1e-3}, new double[] {1}, NOISE, 0, 0);
        KinkDetector.Probe coarse = KinkDetector.probe(again, 100 * H, new int[] {0}, new double[1], 3,
                Stencil.CENTRAL);
        assertTrue(passes(1e-3 * (1 + 5e-6), MostPreciseStep.Estimate.of(coarse, 0, rounding / 100, 100 * H)),
                "100·h alone would have let it pass");
    }

    /**
     * A row whose own |y| understates its rounding (an output near 0 computed from sums of larger terms, as
     * layer_norm's g·x̂ + b, whose mean's and deviation's rounding every output of the row shares): its difference
     * carries an error of fixed size, 2e-15, that the half step at h does not see (it is the same at h/2), 2e-9 at h
     * against a bound of 3e-10. By h's bound alone 10·h and 100·h are refused, h's value is reported, and the right
     * backward fails there; allowed the rounding model at the output's largest |y| (2.7e-9), 100·h is taken, the
     * right backward passes and one wrong by 1.5 times the tolerance fails, where at h it passed.
     */
    @Test
    void aRowWhoseMagnitudeUnderstatesItsRoundingIsJudgedAtOneHundredTimesHAndAWrongBackwardFails() {
        double understated = NumericalError.rounding(Stencil.CENTRAL, 0.1, H);
        KinkDetector.Line shared = sharedError(2e-15);
        int[] row = {0};
        KinkDetector.Probe p = KinkDetector.probe(shared, H, row, new double[1], 3, Stencil.CENTRAL);
        MostPreciseStep.Estimate at = MostPreciseStep.Estimate.of(p, 0, understated, H);
        double wrong = 1e-3 * (1 + 1.5e-6);
        assertTrue(!passes(1e-3, at) && passes(wrong, at), "at h the right backward fails, the wrong one passes");
        for (double k : new double[] {10, 100}) {
            KinkDetector.Probe q = KinkDetector.probe(shared, k * H, row, new double[1], 3, Stencil.CENTRAL);
            MostPreciseStep.Estimate e = MostPreciseStep.Estimate.of(q, 0, understated / k, k * H);
            assertTrue(Math.abs(e.value() - at.value()) > e.bound() + at.bound(), k + "·h refused by h's bound");
        }
        MostPreciseStep.Estimate best = MostPreciseStep.choose(shared, H, new MostPreciseStep.Rows(row, new double[1]),
                new MostPreciseStep.Estimate[] {at}, 3, Stencil.CENTRAL)[0];
        assertEquals(100 * H, best.step());
        assertTrue(passes(1e-3, best), "the right backward passes");
        assertTrue(!passes(wrong, best), "the wrong one fails");
    }

    /** y(t) = 3 + 1e-3·t + 1e-3·t³ + an error growing with t to ±e at ±h and staying there, and rounding of 1e-16. */
    private static KinkDetector.Line sharedError(double e) {
        Cubic gentle = new Cubic(new double[] {1e-3}, new double[] {1e-3}, 1e-16, 0, 0);
        return t -> {
            double[] y = gentle.at(t);
            y[0] += e * Math.max(-1, Math.min(1, t / H));
            return y;
        };
    }
}
