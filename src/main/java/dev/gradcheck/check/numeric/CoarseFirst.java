package dev.gradcheck.check.numeric;

import dev.gradcheck.result.Stencil;

/**
 * The most precise step ({@link MostPreciseStep}) for a caller that holds each row's value at h already (the outputs
 * at x ± h, as full mode's column pass keeps them for a group's near entries): the larger rungs are probed first,
 * and a line whose every row they settle, whatever h's half step would measure, is not probed at h at all. A row's
 * estimate at h has h's value (the half step does not change it) and a bound of at least h's rounding model, so
 * where the rule's choice for every row follows from that alone, it is the choice, value and bound alike. What the
 * half step at h adds beyond that is its kink test, which the probes at 100·h and 10·h make over wider spans (a kink
 * within a few h of x breaks their slopes too; a row at a kink there leaves its line to be taken as before).
 */
public final class CoarseFirst {

    private CoarseFirst() {}

    /** The probe of a line at the coarse rung, made before h's. */
    public static MostPreciseStep.Coarse probe(KinkDetector.Line line, double h, MostPreciseStep.Rows rows,
                                               double outputScale, Stencil stencil) {
        return new MostPreciseStep.Coarse(line, h, rows, outputScale, stencil, KinkDetector.probe(line,
                MostPreciseStep.COARSE_RUNG * h, rows.flat(), rows.analytic(), outputScale, stencil));
    }

    /**
     * Each row's estimate at the coarse rung where that is what {@link MostPreciseStep#choose} keeps for every row
     * whatever h's half step measures; null where any row's could differ: a coarse estimate off a kink, within its
     * bound plus h's least allowance of h's value ({@link #consistentWithH}) and bounded below the middle rung's
     * rounding share is consistent with h's estimate and below every bound h and 10·h can have, so the rule ends
     * there for the row, and no row's bound is truncation's (it would be at least h's rounding).
     *
     * @param valueAtH    each row's stencil value at h
     * @param roundingAtH each row's rounding model at h
     */
    public static MostPreciseStep.Estimate[] settled(MostPreciseStep.Coarse coarse, double[] valueAtH,
                                                     double[] roundingAtH) {
        MostPreciseStep.Estimate[] at = new MostPreciseStep.Estimate[valueAtH.length];
        for (int r = 0; r < at.length; r++) {
            MostPreciseStep.Estimate c = estimate(coarse, coarse.probe(), MostPreciseStep.COARSE_RUNG, r,
                    roundingAtH);
            if (!consistentWithH(coarse, c, valueAtH[r], roundingAtH[r])
                    || !(c.bound() < roundingAtH[r] / MostPreciseStep.MIDDLE_RUNG)) {
                return null;
            }
            at[r] = c;
        }
        return at;
    }

    /**
     * Where every row's coarse estimate is off a kink and consistent with h's value but some row's bound is not
     * below the middle rung's rounding share (an output near 0, whose model at h is tiny), the rule probes 10·h
     * whatever h's half step measures: probed here first, each row's choice where it follows without h's bound B
     * (at least h's rounding model ρ): 100·h's where its bound is below 10·h's and below ρ (10·h, taken or not, and
     * h give way to it); 10·h's where its bound is at most 100·h's, below ρ and it is consistent with h's value
     * within h's least allowance (taken over h, kept over 100·h). Null where any row's needs B; the line then goes
     * on as before, and a caller whose line keeps its outputs evaluates 10·h only once.
     */
    public static MostPreciseStep.Estimate[] settledWithMiddle(MostPreciseStep.Coarse coarse, double[] valueAtH,
                                                               double[] roundingAtH) {
        int n = valueAtH.length;
        MostPreciseStep.Estimate[] coarseAt = new MostPreciseStep.Estimate[n];
        for (int r = 0; r < n; r++) {
            coarseAt[r] = estimate(coarse, coarse.probe(), MostPreciseStep.COARSE_RUNG, r, roundingAtH);
            if (!consistentWithH(coarse, coarseAt[r], valueAtH[r], roundingAtH[r])) {
                return null;
            }
        }
        KinkDetector.Probe middle = KinkDetector.probe(coarse.line(), MostPreciseStep.MIDDLE_RUNG * coarse.h(),
                coarse.rows().flat(), coarse.rows().analytic(), coarse.outputScale(), coarse.stencil());
        MostPreciseStep.Estimate[] at = new MostPreciseStep.Estimate[n];
        for (int r = 0; r < n; r++) {
            MostPreciseStep.Estimate c = coarseAt[r];
            MostPreciseStep.Estimate m = estimate(coarse, middle, MostPreciseStep.MIDDLE_RUNG, r, roundingAtH);
            if (m == null) {
                return null;
            } else if (c.bound() < m.bound() && c.bound() < roundingAtH[r]) {
                at[r] = c;
            } else if (m.bound() <= c.bound() && m.bound() < roundingAtH[r]
                    && consistentWithH(coarse, m, valueAtH[r], roundingAtH[r])) {
                at[r] = m;
            } else {
                return null;
            }
        }
        return at;
    }

    /** Row r's estimate from a probe at k·h (null at a kink there). */
    private static MostPreciseStep.Estimate estimate(MostPreciseStep.Coarse coarse, KinkDetector.Probe p, double k,
                                                     int r, double[] roundingAtH) {
        return MostPreciseStep.Estimate.of(p, r, roundingAtH[r] / k, k * coarse.h());
    }

    /**
     * Whether an estimate is off a kink and consistent with h's value within its bound plus h's least allowance:
     * the larger of h's rounding model and the output's rounding floor, which h's bound can only raise.
     */
    private static boolean consistentWithH(MostPreciseStep.Coarse coarse, MostPreciseStep.Estimate e,
                                           double valueAtH, double roundingAtH) {
        double floor = NumericalError.rounding(coarse.stencil(), coarse.outputScale(), coarse.h());
        return e != null && MostPreciseStep.consistent(e, valueAtH, Math.max(roundingAtH, floor));
    }
}
