package dev.gradcheck.check.target;

/**
 * A mode found, while running, that what it must hold next does not fit the memory budget (full mode's dense
 * blocks, once the compressed paths cannot settle a target): the checker refuses the spec as the budget refuses one
 * before it runs, with its position, why, and the least budget that would let the check run.
 */
public final class OverBudget extends RuntimeException {

    /**
     * The least budget under which a path of the mode would run, and which path: a refusal names it, so that a user
     * with the memory knows what to ask for.
     */
    public record Fits(long bytes, String what) {}

    private final CheckMode.Footprint needed;
    private final Fits fits;

    public OverBudget(CheckMode.Footprint needed, Fits fits) {
        super(needed.what(), null, false, false);
        this.needed = needed;
        this.fits = fits;
    }

    public CheckMode.Footprint needed() {
        return needed;
    }

    /** The least budget that would let the check run, and what it would then hold. */
    public Fits fits() {
        return fits;
    }
}
