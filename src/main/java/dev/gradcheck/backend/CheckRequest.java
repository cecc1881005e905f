package dev.gradcheck.backend;

import dev.gradcheck.result.JacobianCapture;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.Overrides;

/**
 * One check for a backend, with the run's settings that travel with it rather than with the backend, so that one
 * backend (a warm worker) can serve many runs.
 *
 * @param spec      the spec as it is checked: the run's overrides already applied
 * @param overrides the run's checking settings, for a worker that reads the spec again from its file
 * @param limits    how long the check may take in a worker (a backend in this JVM has no time limit)
 * @param jacobians which compared blocks come back with their matrices (matrices cost transport from a worker)
 * @param text      the YAML text the spec was read from, as the front end read it (its file's, or a spec edited in
 *                  the shell), for a worker to read instead of the file, which may have changed since; null only
 *                  where no front end read one (a request made in the worker's own JVM)
 */
public record CheckRequest(OpSpec spec, Overrides overrides, TimeLimits limits, JacobianCapture jacobians,
                           String text) {

    public CheckRequest {
        jacobians = jacobians == null ? JacobianCapture.NONE : jacobians;
    }

    /** Read from its file. */
    public CheckRequest(OpSpec spec, Overrides overrides, TimeLimits limits, JacobianCapture jacobians) {
        this(spec, overrides, limits, jacobians, null);
    }

    /** Without matrices. */
    public CheckRequest(OpSpec spec, Overrides overrides, TimeLimits limits) {
        this(spec, overrides, limits, JacobianCapture.NONE);
    }

    /** The spec alone: no overrides, the default time limit, no matrices. */
    public static CheckRequest of(OpSpec spec) {
        return new CheckRequest(spec, Overrides.NONE, TimeLimits.DEFAULT);
    }
}
