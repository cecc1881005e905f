package dev.gradcheck.result;

import java.util.List;

/**
 * How many entries of a compared Jacobian block disagree, and where: what a report says beyond the worst entry.
 *
 * @param count  entries outside the tolerance
 * @param judged entries compared (the block, or its sample, less masked entries and kink columns)
 * @param masked entries the spec's {@code mask:} left out of judging
 * @param region where the mismatching entries lie, per axis; null when none mismatch
 * @param worst  the worst few mismatching entries, worst first (at most {@link #TOP}); empty when none mismatch
 * @param analyticNonzero  where the analytic side is nonzero, when that differs from where the numerical side is
 *                         (a backward that never reaches some entries: matrix_inverse's is zero off the
 *                         diagonal); null when both sides are nonzero at the same entries, or nothing mismatches
 * @param numericalNonzero where the numerical side is nonzero (above its rounding noise), under the same condition
 */
public record Mismatches(long count, long judged, long masked, EntryRegion region, List<WorstElement> worst,
                         EntrySet analyticNonzero, EntrySet numericalNonzero) {

    /** How many of the worst entries a block lists. */
    public static final int TOP = 3;

    public Mismatches {
        worst = worst == null ? List.of() : List.copyOf(worst);
    }
}
