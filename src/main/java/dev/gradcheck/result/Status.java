package dev.gradcheck.result;

/** How one spec ended, after its expectation was taken into account. */
public enum Status {
    PASSED("pass", 0),
    /** A gradient mismatch that the spec did not expect. */
    FAILED("FAIL", 1),
    /** The spec said {@code expect: fail} and the check failed. */
    EXPECTED_FAIL("xfail", 0),
    /** The spec expected a failure or an error, but the check passed. */
    UNEXPECTED_PASS("XPASS", 1),
    /** The operator threw, unexpectedly. */
    ERROR("ERROR", 3),
    /** The spec said {@code expect: error} and the operator errored. */
    EXPECTED_ERROR("xerror", 0),
    /** The spec could not be read or validated, or it was refused (e.g. over --max-memory). */
    INVALID("INVALID", 2),
    /** The worker JVM died while checking this spec (signal, exit, out of memory); a fresh worker went on. */
    CRASHED("CRASH", 3),
    /** The check ran past its time limit and its worker was stopped. */
    TIMEOUT("TIMEOUT", 3),
    /** The check could not run on this machine (e.g. no usable CUDA device); the exit code stays as it is. */
    SKIPPED("skip", 0);

    private final String label;
    private final int exitCode;

    Status(String label, int exitCode) {
        this.label = label;
        this.exitCode = exitCode;
    }

    /** Short label for the table: upper case where it needs attention. */
    public String label() {
        return label;
    }

    /** The exit code this status asks for; the batch exits with the highest. */
    public int exitCode() {
        return exitCode;
    }

    public String jsonName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
