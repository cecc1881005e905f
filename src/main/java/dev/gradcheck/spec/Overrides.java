package dev.gradcheck.spec;

import dev.gradcheck.result.Mode;
import dev.gradcheck.result.Stencil;

/**
 * Checking settings given on the command line, which win over the spec's own; null leaves the spec's value.
 */
public record Overrides(Mode mode, Integer order, Stencil stencil, Integer maxElements, Double nondetTol,
                        Boolean resample, Boolean compress, Integer threads) {

    public static final Overrides NONE = new Overrides(null, null, null, null, null, null, null, null);

    /** The same overrides with a thread count (given, or the default for checks sharing the machine). */
    public Overrides withThreads(Integer n) {
        return new Overrides(mode, order, stencil, maxElements, nondetTol, resample, compress, n);
    }
}
