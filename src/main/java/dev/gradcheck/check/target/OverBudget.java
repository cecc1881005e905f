package dev.gradcheck.check.target;

/**
 * A mode found, while running, that what it must hold next does not fit the memory budget (full mode's dense
 * blocks, once the compressed paths cannot settle a target): the checker refuses the spec as the budget refuses one
 * before it runs, with its position.
 */
public final class OverBudget extends RuntimeException {

    private final CheckMode.Footprint needed;

    public OverBudget(CheckMode.Footprint needed) {
        super(needed.what(), null, false, false);
        this.needed = needed;
    }

    public CheckMode.Footprint needed() {
        return needed;
    }
}
