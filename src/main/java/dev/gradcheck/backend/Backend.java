package dev.gradcheck.backend;

import dev.gradcheck.check.CheckResult;
import dev.gradcheck.spec.OpSpec;

/** Runs checks on one engine and hands back plain result records. */
public interface Backend extends AutoCloseable {

    /** The engine's name as reports show it ("cpu"). */
    String name();

    /** Checks one spec; never throws for a failing or erroring operator, which ends as a result. */
    CheckResult run(OpSpec spec);

    @Override
    default void close() {}
}
