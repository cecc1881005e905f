package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.check.target.BlockSizes;
import dev.gradcheck.result.Mode;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The budget weighs what each mode will hold: fast mode and sampling exist for shapes a full block cannot take. */
class MemoryBudgetTest {

    private static final String SIGMOID = """
            op: sigmoid
            inputs: {x: {shape: [200, 200]}}
            """;
    /**
     * 40000 outputs x 40000 inputs x 2 blocks x 16 bytes (HeldBytes.DENSE_PER_SIDE) = 51.2 GB as dense blocks;
     * compressed on both sides, a diagonal pattern's 40000 entries and a batch of vectors, ~10 MB; a 16-element
     * sample ~20.5 MB.
     */
    private static final MemoryBudget BUDGET = new MemoryBudget(30_000_000);
    private static final Map<String, Long> OUTPUT = Map.of("0", 40_000L);

    @Test
    void denseFullModeIsRefusedCompressedFullModeFastModeAndASampleFit() {
        OpSpec dense = Specs.parse(SIGMOID + "compress: false\n");
        InvalidSpecException e = assertThrows(InvalidSpecException.class,
                () -> CheckModes.requireFits(BUDGET, dense, OUTPUT));
        assertTrue(e.getMessage().contains("its Jacobians"), e.getMessage());
        assertDoesNotThrow(() -> CheckModes.requireFits(BUDGET, Specs.parse(SIGMOID), OUTPUT));
        assertDoesNotThrow(() -> CheckModes.requireFits(BUDGET, Specs.parse(SIGMOID + "mode: fast\n"), OUTPUT));
        assertDoesNotThrow(() -> CheckModes.requireFits(BUDGET, Specs.parse(SIGMOID + "max_elements: 16\n"), OUTPUT));
        assertFalse(fullRecheckFits(Specs.parse(SIGMOID + "mode: fast\ncompress: false\n")),
                "a failing fast check could not be rechecked in dense blocks");
        assertTrue(fullRecheckFits(Specs.parse(SIGMOID + "mode: fast\n")), "but compressed it could");
        assertTrue(fullRecheckFits(Specs.parse(SIGMOID + "mode: fast\ncompress: false\nmax_elements: 16\n")),
                "and in a sample too");
    }

    /** What fast mode asks before it rechecks a failing input in full. */
    private static boolean fullRecheckFits(OpSpec spec) {
        return BUDGET.fits(CheckModes.of(Mode.FULL).footprint(BlockSizes.of(spec, OUTPUT)).bytes());
    }

    @Test
    void twoEqualInfinitiesAreNoNondeterminism() {
        double inf = Double.NEGATIVE_INFINITY;
        assertTrue(SanityChecks.Difference.of(new double[] {inf, Double.NaN}, new double[] {inf, Double.NaN}).max() == 0);
        assertTrue(SanityChecks.Difference.of(new double[] {inf}, new double[] {-inf}).max() > 0);
    }
}
