package dev.gradcheck.backend;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import java.util.Arrays;
import java.util.List;

/**
 * {@code validate}'s part that runs ops (a graph is built and run once on the values check draws; a one-op ND4J
 * spec is built there, its shape function asked and its forward run once), as a result
 * record, so that it can run in a worker JVM like a check: an op that crashes the JVM on a hostile spec (ND4J's
 * gather with an index out of range does) then costs that spec, not the batch. Valid is {@link Status#PASSED}
 * with no rows; invalid is {@link Status#INVALID} with one {@code file:line:col: message} line per problem. The
 * record is made where the ops run (backend/nd4j's {@code InProcessBackend.validate}); here the front end reads
 * it back as problem lines.
 */
public final class Validation {

    private Validation() {}

    /**
     * The problems a validation ended with, one {@code file:line:col: message} line each: none when valid; a
     * worker that crashed or ran out of time on the spec is one problem at the spec, its first line saying how.
     */
    public static List<String> problems(CheckResult result, OpSpec spec) {
        return switch (result.status()) {
            case PASSED -> List.of();
            case INVALID -> Arrays.asList(result.message().split("\n"));
            case TIMEOUT -> List.of(new SpecError(spec.pos(), "validating it " + firstLine(result.message()))
                    .toString());
            case CRASHED, ERROR, EXPECTED_ERROR -> List.of(new SpecError(spec.pos(), "running its graph once crashed"
                    + " the worker JVM (" + firstLine(result.message()).replaceFirst("^worker crashed: ", "")
                    + "); `gradcheck check` would report it as CRASHED").toString() + laterLines(result.message()));
            default -> List.of(new SpecError(spec.pos(), "could not be validated: " + result.status().name()
                    .toLowerCase(java.util.Locale.ROOT) + " " + firstLine(result.message())).toString());
        };
    }

    /**
     * The message's lines after its first, indented under the problem: for a crash, the worker's last output (the
     * cause, now that a worker's output is captured rather than shown on stderr).
     */
    private static String laterLines(String message) {
        return message == null ? "" : message.strip().lines().skip(1).map(line -> "\n    " + line.strip())
                .collect(java.util.stream.Collectors.joining());
    }

    private static String firstLine(String message) {
        return message == null ? "(no message)" : message.strip().lines().findFirst().orElse("");
    }
}
