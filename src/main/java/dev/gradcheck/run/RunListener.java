package dev.gradcheck.run;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.spec.OpSpec;

/**
 * Hears what a {@link RunSession} does, as it happens: the report writer, fail-fast, and whatever else follows a
 * run (a progress line, a shell). Calls come one at a time, from the session's threads; a listener must not
 * block for long, and must not wait for the run.
 */
public interface RunListener {

    /** The run is about to start: this many checks (one per spec and engine, invalid specs included). */
    default void runStarted(int checks) {}

    /**
     * The run is about to start with these rows, in report order (one per spec and engine, invalid specs
     * included). By default this says only how many, to {@link #runStarted(int)}.
     */
    default void runStarted(java.util.List<PlannedCheck> checks) {
        runStarted(checks.size());
    }

    /** Something the user should know that is no check's result: an engine not usable here, and why. */
    default void notice(String message) {}

    /** A check was handed to an engine; {@code index} is its position in the report. */
    default void checkStarted(int index, OpSpec spec, Engine engine) {}

    /**
     * A check's final result, in the order checks end. Results known before anything runs (invalid specs,
     * engines not usable here) come first, without {@link #checkStarted}; the rows of a spec run on several
     * engines come together once all have ended, with their differences. After fail-fast stopped the run at a
     * row, no later row is reported, even if it ended.
     */
    default void checkFinished(int index, CheckResult result) {}

    /** Every check ended, or fail-fast stopped the run. */
    default void runFinished(RunOutcome outcome) {}

    /**
     * The run was interrupted (Ctrl-C): {@code outcome} holds the checks that finished, and nothing more will be
     * reported. Called from the interrupting thread, possibly while {@link #runFinished} is under way on another.
     */
    default void runInterrupted(RunOutcome outcome) {}
}
