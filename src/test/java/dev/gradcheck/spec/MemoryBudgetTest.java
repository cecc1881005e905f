package dev.gradcheck.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The budget's own arithmetic and refusals; what each mode holds is check/'s MemoryBudgetTest. */
class MemoryBudgetTest {

    private static OpSpec parse(String yaml) {
        try {
            return new SpecLoader().loadText("test.yaml", "test", yaml).get(0).specOrThrow();
        } catch (InvalidSpecException e) {
            throw new IllegalArgumentException("test spec is invalid: " + e.errors(), e);
        }
    }

    @Test
    void aZeroDimensionWeighsNothingAndDividesNothingByZero() {
        // saturating multiplication once divided by the second factor: [3, 0] threw "/ by zero"
        assertEquals(0, MemoryBudget.length(new long[] {3, 0}));
        assertEquals(0, MemoryBudget.length(new long[] {0, 3}));
        assertEquals(0, MemoryBudget.length(new long[] {Long.MAX_VALUE, Long.MAX_VALUE, 0}));
        assertEquals(Long.MAX_VALUE, MemoryBudget.length(new long[] {1L << 40, 1L << 40}));
    }

    @Test
    void anInputLongerThanOneJavaArrayIsRefusedWhateverTheLimit() {
        OpSpec spec = parse("op: tanh\ninputs:\n  x: {shape: [65536, 65536, 65536]}\n");
        InvalidSpecException e = assertThrows(InvalidSpecException.class,
                () -> new MemoryBudget(Long.MAX_VALUE).requireInputsFit(spec));
        assertEquals("test.yaml:3:3: refused: input 'x' has 281474976710656 elements, more than one input can hold"
                + " (2147483639)", e.errors().get(0).toString());
    }

    @Test
    void theTwoSizesOfARefusalNeverReadTheSame() {
        // was "would need 1.0 MiB, over the memory limit of 1.0 MiB"
        assertEquals("[1.1 MiB, 1.0 MiB]", java.util.Arrays.toString(MemoryBudget.distinct(1_200_000, 1 << 20)));
        assertEquals("[1.001 MiB, 1.000 MiB]",
                java.util.Arrays.toString(MemoryBudget.distinct((1 << 20) + 1100, 1 << 20)));
        String[] close = MemoryBudget.distinct((1 << 20) + 24, 1 << 20);
        assertEquals("1.0 MiB (1048600 bytes)", close[0]);
        assertEquals("1.0 MiB (1048576 bytes)", close[1]);
        for (long extra = 1; extra < 1 << 21; extra = extra * 3 + 1) {
            String[] s = MemoryBudget.distinct((1L << 30) + extra, 1L << 30);
            assertNotEquals(s[0], s[1], "needed 1 GiB + " + extra);
        }
    }

    @Test
    void aRefusalAtTheLimitSaysSoWithTwoDifferentNumbers() {
        OpSpec spec = parse("op: tanh\ninputs:\n  x: {shape: [43691]}\n"); // 43691 x 24 bytes = 1048584
        InvalidSpecException e = assertThrows(InvalidSpecException.class,
                () -> new MemoryBudget(1 << 20).requireInputsFit(spec));
        assertEquals("test.yaml:1:1: refused: its inputs would need 1.0 MiB (1048584 bytes), over the memory limit"
                + " of 1.0 MiB (1048576 bytes) (--max-memory; a smaller shape or check: fewer inputs fits)",
                e.errors().get(0).toString());
    }
}
