package dev.gradcheck.backend;

import dev.gradcheck.spec.OpSpec;

/**
 * How long one check may run, in a worker or in this JVM ({@code --in-process}): the spec's {@code timeout:}, else
 * the command line's {@code --timeout}, else {@link #DEFAULT_SECONDS}. Worker start-up (JVM and ND4J, a few seconds)
 * does not count.
 */
public record TimeLimits(Double commandLineSeconds) {

    /** Far above any spec in specs/ (the slowest takes a few seconds), low enough to unblock a hung CI job. */
    public static final double DEFAULT_SECONDS = 300;

    /** No --timeout: each spec's timeout:, else {@link #DEFAULT_SECONDS}. */
    public static final TimeLimits DEFAULT = new TimeLimits(null);

    /** The limit for one spec, and where it came from, for the report. */
    public record Limit(double seconds, String source) {
        long millis() {
            return (long) Math.ceil(seconds * 1000);
        }

        /** What a check that ran past this limit reports: the same words in a worker and in this JVM. */
        String timedOut() {
            return "timed out after " + java.math.BigDecimal.valueOf(seconds).stripTrailingZeros().toPlainString()
                    + " s (" + source + ")";
        }
    }

    public Limit of(OpSpec spec) {
        if (spec.timeoutSeconds() != null) {
            return new Limit(spec.timeoutSeconds(), "the spec's timeout");
        }
        if (commandLineSeconds != null) {
            return new Limit(commandLineSeconds, "--timeout");
        }
        return new Limit(DEFAULT_SECONDS, "the default; set timeout: in the spec or --timeout");
    }
}
