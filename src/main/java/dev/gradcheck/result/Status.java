package dev.gradcheck.result;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * How one spec ended, after its expectation was taken into account. What each status means for the process's exit
 * code is cli/'s business ({@code ExitCode.of}); how a report shows it is report/'s.
 */
public enum Status {
    PASSED,
    /** A gradient mismatch that the spec did not expect. */
    FAILED,
    /** The spec said {@code expect: fail} and the check failed. */
    EXPECTED_FAIL,
    /** The spec expected a failure or an error, but the check passed. */
    UNEXPECTED_PASS,
    /** The operator threw, unexpectedly. */
    ERROR,
    /** The spec said {@code expect: error} and the operator errored. */
    EXPECTED_ERROR,
    /** The spec could not be read or validated, or it was refused (e.g. over --max-memory). */
    INVALID,
    /** The worker JVM died while checking this spec (signal, exit, out of memory); a fresh worker went on. */
    CRASHED,
    /** The check ran past its time limit and its worker was stopped. */
    TIMEOUT,
    /** The check could not run on this machine (e.g. no usable CUDA device). */
    SKIPPED;

    /**
     * Whether a user must act on this: the check did not end as its spec expects (or could not be checked at all).
     * A skipped check needs no attention: it could not run here, which is not the operator's fault.
     */
    public boolean needsAttention() {
        return switch (this) {
            case PASSED, EXPECTED_FAIL, EXPECTED_ERROR, SKIPPED -> false;
            case FAILED, UNEXPECTED_PASS, ERROR, INVALID, CRASHED, TIMEOUT -> true;
        };
    }

    /** The status's name in machine-readable reports: {@code passed}, {@code expected_fail}, ... */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The status a report names {@code text} ({@link #jsonName()}'s counterpart, for reading reports back). */
    public static Optional<Status> fromJsonName(String text) {
        return Arrays.stream(values()).filter(s -> s.jsonName().equals(text)).findFirst();
    }
}
