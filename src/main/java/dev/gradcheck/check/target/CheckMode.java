package dev.gradcheck.check.target;

import dev.gradcheck.check.CheckModes;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.spec.MemoryBudget;
import java.util.List;

/**
 * One way of comparing a target's analytic Jacobian with its numerical one: the behaviour behind a
 * {@link dev.gradcheck.result.Mode} constant, chosen by {@link CheckModes#of}. A mode says what it will hold in
 * memory (so the budget can refuse a spec before anything large exists) and produces one row per
 * (output, checked input) block; the checker adds the rows every mode shares (JVP, sanity checks, order 2).
 */
public interface CheckMode {

    /** What this mode holds in memory for blocks of these sizes, and how the refusal names it. */
    record Footprint(long bytes, String what) {}

    Footprint footprint(BlockSizes blocks);

    /**
     * @param budget what the mode may plan to hold beyond its own footprint (fast mode's recheck of a failing input
     *               in full fits or not)
     */
    List<GradientResult> run(CheckTarget target, Settings settings, MemoryBudget budget);
}
