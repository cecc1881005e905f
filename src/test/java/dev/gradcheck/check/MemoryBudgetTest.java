package dev.gradcheck.check;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.OpSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The budget weighs what each mode will hold: fast mode and sampling exist for shapes a full block cannot take. */
class MemoryBudgetTest {

    private static final String SIGMOID = """
            op: sigmoid
            inputs: {x: {shape: [200, 200]}}
            """;
    /** 40000 outputs x 40000 inputs x 2 blocks x 8 bytes = 25.6 GB in full; a 16-element sample ~10 MB. */
    private static final MemoryBudget BUDGET = new MemoryBudget(20_000_000);
    private static final Map<String, Long> OUTPUT = Map.of("0", 40_000L);

    @Test
    void fullModeIsRefusedFastModeAndASampleFit() {
        OpSpec full = Specs.parse(SIGMOID);
        InvalidSpecException e = assertThrows(InvalidSpecException.class, () -> BUDGET.requireJacobiansFit(full, OUTPUT));
        assertTrue(e.getMessage().contains("its Jacobians"), e.getMessage());
        assertDoesNotThrow(() -> BUDGET.requireJacobiansFit(Specs.parse(SIGMOID + "mode: fast\n"), OUTPUT));
        assertDoesNotThrow(() -> BUDGET.requireJacobiansFit(Specs.parse(SIGMOID + "max_elements: 16\n"), OUTPUT));
        assertFalse(BUDGET.fullRecheckFits(Specs.parse(SIGMOID + "mode: fast\n"), OUTPUT),
                "a failing fast check could not be rechecked in full");
        assertTrue(BUDGET.fullRecheckFits(Specs.parse(SIGMOID + "mode: fast\nmax_elements: 16\n"), OUTPUT),
                "but in a sample it could");
    }

    @Test
    void twoEqualInfinitiesAreNoNondeterminism() {
        double inf = Double.NEGATIVE_INFINITY;
        assertTrue(SanityChecks.Difference.of(new double[] {inf, Double.NaN}, new double[] {inf, Double.NaN}).max() == 0);
        assertTrue(SanityChecks.Difference.of(new double[] {inf}, new double[] {-inf}).max() > 0);
    }
}
