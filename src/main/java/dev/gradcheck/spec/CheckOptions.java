package dev.gradcheck.spec;

/**
 * A spec's finer checking settings, beside {@link OpSpec#mode()} and {@link OpSpec#order()}.
 *
 * @param stencil     how the numerical derivative is taken
 * @param maxElements check at most this many elements per input (a seeded sample); null checks all
 * @param nondetTol   the largest difference allowed between two runs of the same backward
 * @param resample    on a nondifferentiable point, draw new inputs until the point is smooth
 */
public record CheckOptions(Stencil stencil, Integer maxElements, double nondetTol, boolean resample) {

    public static final CheckOptions DEFAULT = new CheckOptions(Stencil.CENTRAL, null, 0.0, false);

    CheckOptions with(Overrides o) {
        return new CheckOptions(
                o.stencil() != null ? o.stencil() : stencil,
                o.maxElements() != null ? o.maxElements() : maxElements,
                o.nondetTol() != null ? o.nondetTol() : nondetTol,
                o.resample() != null ? o.resample() : resample);
    }
}
