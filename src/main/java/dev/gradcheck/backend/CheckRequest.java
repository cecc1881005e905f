package dev.gradcheck.backend;

import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.Overrides;

/**
 * One check for a backend, with the run's settings that travel with it rather than with the backend, so that one
 * backend (a warm worker) can serve many runs.
 *
 * @param spec      the spec as it is checked: the run's overrides already applied
 * @param overrides the run's checking settings, for a worker that reads the spec again from its file
 * @param limits    how long the check may take in a worker (a backend in this JVM has no time limit)
 */
public record CheckRequest(OpSpec spec, Overrides overrides, TimeLimits limits) {

    /** The spec alone: no overrides, the default time limit. */
    public static CheckRequest of(OpSpec spec) {
        return new CheckRequest(spec, Overrides.NONE, TimeLimits.DEFAULT);
    }
}
