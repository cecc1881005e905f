package dev.gradcheck.backend;

import dev.gradcheck.result.BackendSample;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.spec.OpSpec;

/** Runs checks on one engine and hands back plain result records. */
public interface Backend extends AutoCloseable {

    /** The engine this backend runs checks on. */
    Engine engine();

    /** Checks one spec; never throws for a failing or erroring operator, which ends as a result. */
    CheckResult run(CheckRequest request);

    /** Checks one spec as it is, with the default time limit. */
    default CheckResult run(OpSpec spec) {
        return run(CheckRequest.of(spec));
    }

    /**
     * The spec's outputs and one backward pass on this engine, to compare engines; null when it cannot be taken
     * (the op errors, or the engine crashed), which the comparison then reports as missing.
     */
    default BackendSample sample(CheckRequest request) {
        return null;
    }

    /**
     * Validates a spec that must run ops to be validated (a graph is built and run once): see {@link Validation}.
     * An engine that cannot says so as an error.
     */
    default CheckResult validate(CheckRequest request) {
        return dev.gradcheck.check.Unfinished.of(request.spec(), engine().specName(),
                dev.gradcheck.result.Status.ERROR, "the " + engine().specName() + " engine does not validate specs", 0);
    }

    /** Makes the backend ready for a check now, rather than with the first check; nothing to do by default. */
    default void start() {}

    /**
     * Starts whatever this backend needs before its first check (a worker JVM) without waiting for it, so that
     * the start overlaps the caller's own work; the first check then waits for what is left. Nothing by default.
     */
    default void prestart() {}

    @Override
    default void close() {}
}
