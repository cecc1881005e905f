package dev.gradcheck.check;

import dev.gradcheck.check.fast.FastCheck;
import dev.gradcheck.check.full.FullCheck;
import dev.gradcheck.check.target.BlockSizes;
import dev.gradcheck.check.target.CheckMode;
import dev.gradcheck.result.Mode;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import java.util.Map;

/**
 * The class behind each {@link Mode}: the one switch a new mode adds an arm to (the compiler points here). Public
 * for {@link #requireFits} alone, which {@code validate} asks too (backend/Validation), so both commands refuse the
 * same specs.
 */
public final class CheckModes {

    private CheckModes() {}

    static CheckMode of(Mode mode) {
        return switch (mode) {
            case FULL -> new FullCheck();
            case FAST -> new FastCheck();
        };
    }

    /**
     * Refuses the spec when what its mode will hold does not fit the budget: asked once the forward pass has told
     * the output lengths, before the blocks, which dominate.
     */
    public static void requireFits(MemoryBudget budget, OpSpec spec, Map<String, Long> outputLengths)
            throws InvalidSpecException {
        CheckMode.Footprint f = of(spec.mode()).footprint(BlockSizes.of(spec, outputLengths));
        budget.require(spec.pos(), f.bytes(), f.what(), "mode: fast, max_elements: N, a smaller shape or check:"
                + " fewer inputs fits");
    }
}
