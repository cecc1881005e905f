package dev.gradcheck.check.target;

import static dev.gradcheck.spec.MemoryBudget.saturatingAdd;
import static dev.gradcheck.spec.MemoryBudget.saturatingMul;

import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import java.util.List;
import java.util.Map;
import java.util.function.LongBinaryOperator;

/**
 * The sizes a mode's memory depends on: the element count of each checked input and of each checked output, the
 * {@code max_elements} sample, if any, and whether full mode may compress its blocks (no sample, no mask,
 * {@code compress} not off). Counts saturate at Long.MAX_VALUE: a spec may state a shape whose
 * product overflows a long, and it must be refused, not wrapped round to a small number.
 */
public record BlockSizes(List<Long> inputLengths, List<Long> outputLengths, Integer sample, boolean compressible) {

    /** Before any array exists: the spec's checked inputs, and the output lengths its forward pass gave. */
    public static BlockSizes of(OpSpec spec, Map<String, Long> outputLengths) {
        List<Long> inputs = spec.check().stream().map(spec::input).map(MemoryBudget::length).toList();
        return new BlockSizes(inputs, List.copyOf(outputLengths.values()), spec.options().maxElements(),
                spec.options().compress() && spec.options().mask().isEmpty() && spec.options().maxElements() == null);
    }

    /** The blocks of a target being checked. */
    public static BlockSizes of(CheckTarget t, Settings s) {
        List<Long> inputs = t.wrt().stream().map(in -> t.refInputs().get(in).length()).toList();
        List<Long> outputs = t.outputs().stream().map(out -> t.refAtX().get(out).length()).toList();
        return new BlockSizes(inputs, outputs, s.maxElements(),
                s.compress() && s.mask().isEmpty() && s.maxElements() == null);
    }

    /** Bytes of doubles over every (checked input n, output m) block, given the doubles one block holds. */
    public long bytesOverBlocks(LongBinaryOperator doublesPerBlock) {
        return bytesOverBlocks(doublesPerBlock, Double.BYTES);
    }

    /**
     * Bytes over every (checked input n, output m) block, given the units one block holds and the bytes of each
     * ({@link HeldBytes}).
     */
    public long bytesOverBlocks(LongBinaryOperator unitsPerBlock, long bytesPerUnit) {
        long total = 0;
        for (long n : inputLengths) {
            for (long m : outputLengths) {
                total = saturatingAdd(total, saturatingMul(unitsPerBlock.applyAsLong(n, m), bytesPerUnit));
            }
        }
        return total;
    }
}
