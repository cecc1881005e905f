package dev.gradcheck.check;

import dev.gradcheck.check.target.Defaults;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.DType;
import dev.gradcheck.spec.Expectation;
import dev.gradcheck.spec.OpSpec;
import java.util.List;

/**
 * The result of a check that produced none itself: its worker crashed or ran out of time, or its backend is not
 * usable here. It carries everything the spec says (name, op, dtype, tolerance) so the report row reads like any
 * other.
 */
public final class Unfinished {

    private Unfinished() {}

    /**
     * @param status  {@link Status#CRASHED}, {@link Status#TIMEOUT}, {@link Status#SKIPPED} or {@link Status#ERROR}
     * @param message why, as the report should show it
     */
    public static CheckResult of(OpSpec spec, String backend, Status status, String message, double seconds) {
        // the settings as a finished check reports them, from Defaults: Settings' Step works on arrays (ND4J), and
        // this runs in the front end
        DType dtype = Defaults.dtypeUnderTest(spec);
        // A crash is the hardest way an operator can error: a spec that expects an error accepts it.
        boolean expected = spec.expect().kind() == Expectation.Kind.ERROR
                && (status == Status.CRASHED || status == Status.ERROR);
        return new CheckResult(spec.name(), spec.pos().toString(), spec.op().value(), backend, dtype.specName(),
                expected ? Status.EXPECTED_ERROR : status, spec.expect().kind().specName(), spec.expect().reason(),
                message, List.of(), Defaults.describe(spec.tolerance(), dtype), Defaults.delta(spec), seconds);
    }
}
