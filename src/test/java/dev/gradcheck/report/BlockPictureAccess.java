package dev.gradcheck.report;

import dev.gradcheck.result.GradientResult;

/** {@link BlockPictureTest}'s sample block, for tests in other packages. */
public final class BlockPictureAccess {

    private BlockPictureAccess() {}

    /** A 4 x 4 block whose analytic side is wrong at one entry. */
    public static GradientResult wrongBlock() {
        return BlockPictureTest.block(4, 2, 1);
    }
}
