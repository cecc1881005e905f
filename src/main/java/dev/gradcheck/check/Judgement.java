package dev.gradcheck.check;

import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.Expectation;
import java.util.List;

/** How a check ended, weighed against what its spec expects ({@code expect:}): the status it reports. */
final class Judgement {

    private Judgement() {}

    /** What happened, before the expectation is taken into account. */
    enum Outcome {
        PASS,
        MISMATCH,
        /** A row failed that {@code expect: {fail: [...]}} did not name. */
        UNEXPECTED_MISMATCH,
        ERROR,
        INVALID
    }

    /** The outcome of a check that produced all its rows. */
    static Outcome of(List<GradientResult> rows, Expectation expect) {
        return rows.stream().allMatch(g -> g.verdict().passed()) ? Outcome.PASS
                : failsOnlyAsExpected(rows, expect) ? Outcome.MISMATCH : Outcome.UNEXPECTED_MISMATCH;
    }

    static Status status(Outcome outcome, Expectation expect) {
        return switch (outcome) {
            case INVALID -> Status.INVALID;
            case PASS -> expect.kind() == Expectation.Kind.PASS ? Status.PASSED : Status.UNEXPECTED_PASS;
            case MISMATCH -> expect.kind() == Expectation.Kind.FAIL ? Status.EXPECTED_FAIL : Status.FAILED;
            case UNEXPECTED_MISMATCH -> Status.FAILED;
            case ERROR -> expect.kind() == Expectation.Kind.ERROR ? Status.EXPECTED_ERROR : Status.ERROR;
        };
    }

    /** With {@code expect: {fail: [kinds]}}, only rows of those kinds may fail; otherwise any may. */
    private static boolean failsOnlyAsExpected(List<GradientResult> rows, Expectation expect) {
        return expect.failing().isEmpty() || rows.stream().filter(r -> !r.verdict().passed())
                .allMatch(r -> expect.failing().contains(r.kind().reportName()));
    }
}
