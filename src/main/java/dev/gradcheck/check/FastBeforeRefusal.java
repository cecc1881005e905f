package dev.gradcheck.check;

import dev.gradcheck.check.fast.FastCheck;
import dev.gradcheck.check.target.CheckTarget;
import dev.gradcheck.check.target.OverBudget;
import dev.gradcheck.check.target.Settings;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.spec.MemoryBudget;
import java.util.List;

/**
 * Where full mode would refuse a target over the budget (dense blocks needed and too large, because both sides
 * compressed could not settle it), fast mode's projections are judged first. A projection that disagrees beyond
 * the tolerance and beyond what its finite difference can resolve (kinks probed along its direction) is a wrong
 * backward, whatever full mode could hold: the check fails with those rows instead of being refused. Projections
 * that agree prove nothing entry by entry (fast mode dilutes a single wrong entry), so then the refusal stands.
 * A softmax leaking across every row, or a convolution whose weight gradient is zero, were refused before
 * (docs/checking.md, "Where it stops").
 */
final class FastBeforeRefusal {

    private FastBeforeRefusal() {}

    /** The fast rows where one fails, each failing one saying why full mode did not judge; else null. */
    static List<GradientResult> failing(CheckTarget t, Settings s, MemoryBudget budget, OverBudget refused) {
        List<GradientResult> fast = FastCheck.projections(t, s);
        if (fast == null || fast.stream().allMatch(r -> r.verdict().passed())) {
            return null;
        }
        String why = "full mode could not judge it under --max-memory (" + refused.needed().what() + " would need "
                + MemoryBudget.human(refused.needed().bytes()) + ", over " + MemoryBudget.human(budget.bytes())
                + "), so this is fast mode's row: its projection disagrees beyond the tolerance and its difference's"
                + " own error";
        return fast.stream().map(r -> r.verdict().passed() ? r : r.withNote(why)).toList();
    }
}
