package dev.gradcheck.check;

import dev.gradcheck.result.Stencil;
import dev.gradcheck.spec.Tolerance;

/** The numerical settings one check runs with, defaults already applied. */
record Settings(double delta, Tolerance tolerance, Stencil stencil, Integer maxElements, double nondetTol,
                long seed) {

    /** The same settings for a fresh draw of the inputs. */
    Settings withSeed(long newSeed) {
        return new Settings(delta, tolerance, stencil, maxElements, nondetTol, newSeed);
    }
}
