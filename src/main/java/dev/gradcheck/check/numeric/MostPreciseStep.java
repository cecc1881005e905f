package dev.gradcheck.check.numeric;

import dev.gradcheck.result.Stencil;

/**
 * Judges smooth entries at the step where their finite difference is most precise: every entry whose score under
 * the tolerance alone is above {@value NumericTuning#AGAIN_ABOVE}. At the check's step h an
 * entry's error bound is the larger of the rounding model and what the half step measured; both can be wrong
 * together in one direction only: the model knows the output's magnitude, not what the forward summed to reach
 * it (a matmul's inner sum of 4096 terms, a std over 10⁶ elements round several times more than ε·|y|), and a
 * single half-step difference can come out small by chance. Rounding falls as 1/h and truncation grows as
 * h^p, so the same line is probed at 100 and 10 times h (6 forward evaluations each, {@link KinkDetector}; 10·h
 * only where it could be chosen), and each entry takes the value and bound of the step whose bound is the smallest: a
 * bound that hides a difference at h (ND4J's sigm_cross_entropy_loss over an output of 21, whose rounding at
 * h = 1e-6 is 1.9e-8) resolves it at 100·h, and a linear or gently curved forward whose rounding at h exceeds the
 * model is judged where it is 100 times smaller. The choice is by bound, never by the difference itself, so a
 * wrong entry cannot pick the step that happens to agree. A row at a kink at a larger step keeps the smaller one.
 */
public final class MostPreciseStep {

    /** The larger step tried first, in multiples of h: where rounding dominates at h, the most precise one. */
    static final double COARSE_RUNG = 100;

    /**
     * The step between, in multiples of h, probed only for rows where it could still be chosen: a row whose
     * estimate at {@link #COARSE_RUNG} is consistent and bounded below this rung's rounding share (which every
     * estimate here is bounded by, at least) takes the coarse one whatever this rung would measure.
     */
    static final double MIDDLE_RUNG = 10;

    /**
     * The smaller step tried, in multiples of h, where an entry's best bound is still truncation (a forward that
     * curves at the scale of h: sin(w·x) with w·h a fiftieth of a period), so that it is resolved, not left within
     * the finite differences' own error. Only there: elsewhere rounding dominates and a smaller step only loses.
     */
    private static final double SMALLER_RUNG = 0.1;

    /** A bound this many times its rounding model is truncation's (the half step measured what rounding cannot). */
    private static final double TRUNCATION_OVER_ROUNDING = 100;

    private MostPreciseStep() {}

    /**
     * An entry's numerical value and a bound on its error, taken with this step.
     *
     * @param rounding the rounding model's share of {@code bound}, which scales as 1/step
     */
    public record Estimate(double value, double bound, double rounding, double step) {

        /** The estimate a probe at {@code step} gives for its row r, or null where r sits at a kink there. */
        public static Estimate of(KinkDetector.Probe p, int r, double roundingAtStep, double step) {
            if (p.kinks()[r] || Double.isNaN(p.values()[r])) {
                return null;
            }
            return new Estimate(p.values()[r], Math.max(roundingAtStep, p.errors()[r]), roundingAtStep, step);
        }
    }

    /** Whether the stencil's value and half-step error at a step can be read from a probe there. */
    static boolean applies(Stencil stencil) {
        return stencil != Stencil.RICHARDSON;
    }

    /**
     * The rows of a line being judged: the output entries, flat, and the backward's value at each.
     */
    public record Rows(int[] flat, double[] analytic) {}

    /**
     * Each row's estimate at the step whose bound is smallest, h included.
     *
     * @param atH         each row's estimate at h (null for a row at a kink there, which stays null)
     * @param outputScale the largest |y|, for the probes' rounding floor
     */
    public static Estimate[] choose(KinkDetector.Line line, double h, Rows rows, Estimate[] atH, double outputScale,
                             Stencil stencil) {
        return choose(new Ladder(line, h, rows, atH, outputScale, stencil), null);
    }

    /** {@link #choose}, with the coarse rung's probe already made ({@link CoarseFirst#probe}). */
    public static Estimate[] choose(Coarse coarse, Estimate[] atH) {
        return choose(new Ladder(coarse.line(), coarse.h(), coarse.rows(), atH, coarse.outputScale(),
                coarse.stencil()), coarse.probe());
    }

    private static Estimate[] choose(Ladder ladder, KinkDetector.Probe coarseProbe) {
        Estimate[] atH = ladder.atH();
        Stencil stencil = ladder.stencil();
        Estimate[] best = atH.clone();
        if (!applies(stencil) || java.util.Arrays.stream(best).allMatch(java.util.Objects::isNull)) {
            return best;
        }
        Estimate[] coarse = coarseProbe == null ? ladder.estimates(COARSE_RUNG)
                : ladder.estimates(coarseProbe, COARSE_RUNG);
        if (middleCouldBeChosen(best, coarse, ladder)) {
            ladder.take(ladder.estimates(MIDDLE_RUNG), best);
        }
        ladder.take(coarse, best);
        if (java.util.Arrays.stream(best).anyMatch(MostPreciseStep::truncationBound)) {
            ladder.take(ladder.estimates(SMALLER_RUNG), best);
        }
        return best;
    }

    /** A line and its probe at the coarse rung, made before h's half step ({@link CoarseFirst#probe}). */
    public record Coarse(KinkDetector.Line line, double h, Rows rows, double outputScale, Stencil stencil,
                         KinkDetector.Probe probe) {}

    /** One line's rows and their estimates at h, probed at other steps. */
    private record Ladder(KinkDetector.Line line, double h, Rows rows, Estimate[] atH, double outputScale,
                          Stencil stencil) {

        /** The probe at k·h: each row's estimate there (null where the row is at a kink there, or has none at h). */
        Estimate[] estimates(double k) {
            return estimates(KinkDetector.probe(line, k * h, rows.flat(), rows.analytic(), outputScale, stencil), k);
        }

        /** Each row's estimate from the probe made at k·h. */
        Estimate[] estimates(KinkDetector.Probe p, double k) {
            Estimate[] at = new Estimate[atH.length];
            for (int r = 0; r < at.length; r++) {
                at[r] = atH[r] == null ? null : Estimate.of(p, r, atH[r].rounding() / k, k * h);
            }
            return at;
        }

        /** Each row's estimate at a rung replaces its best where its bound is smaller and it is consistent. */
        void take(Estimate[] at, Estimate[] best) {
            for (int r = 0; r < best.length; r++) {
                Estimate e = best[r] == null ? null : at[r];
                if (e != null && e.bound() < best[r].bound() && consistent(e, r)) {
                    best[r] = e;
                }
            }
        }

        /**
         * Whether row r's estimate at another step agrees with h's within the other's bound and h's allowance: h's
         * bound, or the rounding model at the output's largest |y| where that is larger. An output's own |y| does
         * not show what the forward summed to reach it, and a sum's rounding is shared by the outputs that read
         * it: layer_norm's outputs near 0 (g·x̂ + b) carry a mean's and a deviation's over 1,000 elements, 5e-10
         * at h = 1e-6 in every entry of a row alike, against a model of 5e-13 to 9e-10 from their own |y|; with
         * that model alone 100·h's value, right to 1e-11, was refused and h's reported.
         */
        boolean consistent(Estimate other, int r) {
            return MostPreciseStep.consistent(other, atH[r].value(),
                    Math.max(atH[r].bound(), NumericalError.rounding(stencil, outputScale, h)));
        }
    }

    /**
     * Whether the middle rung could give any row a different estimate than the rungs on either side of it: taken in
     * order, h, 10·h, 100·h, a row ends at 100·h's estimate where that is consistent and its bound is below every
     * bound 10·h can have (its rounding share, h's over 10: a bound is never below its rounding share), whatever
     * 10·h measures; below h's bound too, which is at least h's rounding share. Where every row does, 10·h's
     * evaluations cannot change a value, a bound or a verdict, and are not made.
     */
    private static boolean middleCouldBeChosen(Estimate[] best, Estimate[] coarse, Ladder ladder) {
        for (int r = 0; r < best.length; r++) {
            if (best[r] != null && !(coarse[r] != null && ladder.consistent(coarse[r], r)
                    && coarse[r].bound() < ladder.atH()[r].rounding() / MIDDLE_RUNG)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether an estimate's bound is its half step's measured error far above the rounding model: truncation, which
     * a smaller step shrinks as h^p while rounding grows only as 1/h.
     */
    private static boolean truncationBound(Estimate e) {
        return e != null && e.bound() > TRUNCATION_OVER_ROUNDING * e.rounding();
    }

    /**
     * Whether another step's estimate agrees with the one at h within both their bounds. A larger step that does
     * not has met what its own half step cannot see: a forward periodic at that scale (sin(w·x) with w·100·h a
     * whole period differs by nothing at 100·h and at 50·h alike, so its bound is tiny and its value wrong). Only
     * the numerical side is compared, never the backward's value, so a wrong entry cannot steer the choice.
     */
    static boolean consistent(Estimate other, double valueAtH, double allowanceAtH) {
        return Math.abs(other.value() - valueAtH) <= other.bound() + allowanceAtH;
    }
}
