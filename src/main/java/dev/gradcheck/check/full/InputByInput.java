package dev.gradcheck.check.full;

import dev.gradcheck.check.jacobian.ParallelLines;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.check.twosided.TwoSidedCompression;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.spec.MemoryBudget;
import java.util.ArrayList;
import java.util.List;

/**
 * Both sides compressed one checked input at a time, where the pattern's entries of every input together are over
 * the memory budget and each input's alone are not (matmul [512,512]·[512,512]: 3.0 GiB together, 1.5 GiB each, under
 * the default 2.9 GiB). Each input's blocks are judged on their own in dense mode too, so each run judges its input's
 * entries exactly as the joint run would; what it costs is the backward passes the inputs shared, made once per
 * input (matmul: 512 more), and the pattern probed once more per input. Only one run's entries are held at a time.
 */
final class InputByInput {

    private InputByInput() {}

    /**
     * Whether every input alone passes the two-sided path's gates (memory included), probed as the runs will probe
     * them, so that no input's run is spent on a target another input's would refuse.
     */
    static boolean eachFits(CheckTarget t, Settings s, List<String> inputs, MemoryBudget budget,
                            TwoSidedCompression.Gate gate) {
        if (inputs.size() < 2) {
            return false;
        }
        for (String in : inputs) {
            if (TwoSidedCompression.declined(t, s, List.of(in), budget, gate) != null) {
                return false;
            }
        }
        return true;
    }

    /**
     * The two-sided run of each input in turn, its rows in the inputs' order; the first run that does not settle
     * its input (its screen sent back what it could not locate) is the answer, as the joint run's would be.
     */
    static TwoSidedCompression.Attempt attempt(CheckTarget t, Settings s, List<String> inputs, ParallelLines threads,
                                               MemoryBudget budget, TwoSidedCompression.Gate gate) {
        List<GradientResult> rows = new ArrayList<>();
        for (String in : inputs) {
            TwoSidedCompression.Attempt one = TwoSidedCompression.attempt(t, s, List.of(in), threads, budget, gate);
            if (one.rows() == null) {
                return one;
            }
            rows.addAll(one.rows());
        }
        return new TwoSidedCompression.Attempt(rows, null, null);
    }
}
