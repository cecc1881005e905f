package dev.gradcheck.backend;

import dev.gradcheck.check.CheckModes;
import dev.gradcheck.op.OpResolver;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecError;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * {@code validate}'s part that runs ops (a graph is built and run once on the values check draws; a one-op ND4J
 * spec is built there, its shape function asked and its forward run once), as a result
 * record, so that it can run in a worker JVM like a check: an op that crashes the JVM on a hostile spec (ND4J's
 * gather with an index out of range does) then costs that spec, not the batch. Valid is {@link Status#PASSED}
 * with no rows; invalid is {@link Status#INVALID} with one {@code file:line:col: message} line per problem.
 */
public final class Validation {

    private Validation() {}

    /** Validates in this JVM; whatever building the spec throws becomes one problem at the spec. */
    static CheckResult run(OpResolver resolver, OpSpec spec, MemoryBudget budget, String backend) {
        List<SpecError> problems;
        try {
            Map<String, Long> outputs = resolver.validate(spec, budget);
            if (!outputs.isEmpty()) {
                CheckModes.requireFits(budget, spec, outputs); // a graph's Jacobians, as check weighs them
            }
            resolver.checkShapes(spec); // a one-op ND4J spec: its shape function and one forward
            problems = List.of();
        } catch (InvalidSpecException e) {
            problems = e.errors();
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
            problems = List.of(new SpecError(spec.pos(), "cannot be validated: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage().strip().lines().findFirst().orElse(""))));
        }
        return new CheckResult(spec.name(), spec.pos().toString(), spec.op().value(), backend, "",
                problems.isEmpty() ? Status.PASSED : Status.INVALID, spec.expect().kind().specName(),
                spec.expect().reason(), problems.isEmpty() ? null
                : String.join("\n", problems.stream().map(SpecError::toString).toList()), List.of(), "", 0, 0);
    }

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
                    + "); `gradcheck check` would report it as CRASH").toString() + laterLines(result.message()));
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
