package dev.gradcheck.check;

import dev.gradcheck.check.target.Settings;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Verdict;
import dev.gradcheck.spec.Init;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.OpSpec;
import java.util.List;

/**
 * {@code resample: true}: draws the inputs again with seed + 1, + 2, ... while the check meets a kink, up to
 * {@link #MAX_RESAMPLES} times; the rows say which seed they came from, or why redrawing could not help.
 */
final class Resampler {

    /** At most this many fresh draws of the inputs. */
    static final int MAX_RESAMPLES = 5;

    /** One pass of the checker over one draw of the inputs, adding its rows. */
    interface Pass {
        void check(OpSpec spec, Settings settings, List<GradientResult> rows) throws InvalidSpecException;
    }

    private Resampler() {}

    static boolean hasKink(List<GradientResult> rows) {
        return rows.stream().anyMatch(r -> r.verdict() == Verdict.NONDIFFERENTIABLE);
    }

    /** Replaces {@code rows} (a pass that met a kink) with those of the first draw that meets none. */
    static void resample(OpSpec spec, Settings first, List<GradientResult> rows, Pass pass)
            throws InvalidSpecException {
        if (!anyRandomInit(spec)) {
            rows.replaceAll(r -> r.verdict() != Verdict.NONDIFFERENTIABLE ? r : r.withNote("resample: true has no"
                    + " effect here: the checked inputs have fixed values"));
            return;
        }
        for (int k = 1; k <= MAX_RESAMPLES && hasKink(rows); k++) {
            long seed = first.seed() + k;
            rows.clear();
            pass.check(spec, first.withSeed(seed), rows);
            boolean gaveUp = k == MAX_RESAMPLES && hasKink(rows);
            rows.replaceAll(r -> r.withNote("inputs redrawn with seed " + seed + " after a nondifferentiable point"
                    + (gaveUp && r.verdict() == Verdict.NONDIFFERENTIABLE ? "; still nondifferentiable after "
                    + MAX_RESAMPLES + " redraws, gave up" : "")));
        }
    }

    /** Only random inits change with the seed; fixed values would give the same kink again. */
    private static boolean anyRandomInit(OpSpec spec) {
        return spec.check().stream().map(spec::input)
                .anyMatch(in -> in.init() instanceof Init.Uniform || in.init() instanceof Init.Normal);
    }
}
