package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.result.Status;
import org.junit.jupiter.api.Test;

/** The one place statuses become exit codes agrees with what the results say needs attention. */
class ExitCodeTest {

    @Test
    void exactlyTheStatusesThatNeedAttentionSetTheExitCode() {
        for (Status s : Status.values()) {
            assertEquals(s.needsAttention(), ExitCode.of(s) != ExitCode.OK, s.name());
        }
    }

    @Test
    void eachKindOfProblemHasItsCode() {
        assertEquals(ExitCode.MISMATCH, ExitCode.of(Status.FAILED));
        assertEquals(ExitCode.MISMATCH, ExitCode.of(Status.UNEXPECTED_PASS));
        assertEquals(ExitCode.USAGE, ExitCode.of(Status.INVALID));
        assertEquals(ExitCode.OP_ERROR, ExitCode.of(Status.CRASHED));
        assertEquals(ExitCode.OK, ExitCode.of(Status.SKIPPED));
    }
}
