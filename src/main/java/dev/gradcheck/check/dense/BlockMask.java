package dev.gradcheck.check.dense;

import dev.gradcheck.check.numeric.EntryFilter;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.Jacobian;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.JacobianMask;
import dev.gradcheck.spec.SpecError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The spec's {@code mask:} over one Jacobian block: which of its entries are left out of judging. Its input sides
 * were checked with the spec; output sides are checked here, once the forward has said which outputs exist and
 * their shapes, and a bad one makes the spec invalid at the mask entry's position.
 */
public final class BlockMask {

    private BlockMask() {}

    /** Every rule's output side names an output and fits its shape. */
    public static void validate(JacobianMask mask, List<String> outputs, Map<String, long[]> shapes)
            throws InvalidSpecException {
        List<SpecError> errors = new ArrayList<>();
        for (JacobianMask.Rule rule : mask.rules()) {
            JacobianMask.Side side = rule.output();
            if (side == null) {
                continue;
            }
            List<String> named = outputs.stream().filter(o -> JacobianMask.namesOutput(side.name(), o)).toList();
            if (named.isEmpty()) {
                errors.add(new SpecError(rule.pos(), "mask '" + rule.text() + "': '" + side.name() + "' is neither an"
                        + " input nor a checked output (outputs: " + String.join(", ", outputs.stream()
                        .map(BlockMask::shown).distinct().toList()) + ")"));
                continue;
            }
            // 'out' names every numbered output: it applies to those it fits, and must fit one
            List<String> problems = named.stream().map(out -> fit(side, shapes.get(out))).toList();
            if (problems.stream().allMatch(java.util.Objects::nonNull)) {
                String out = named.get(0);
                errors.add(new SpecError(rule.pos(), "mask '" + rule.text() + "': output " + out + " "
                        + problems.get(0)));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidSpecException(errors);
        }
    }

    private static String shown(String output) {
        return output.chars().allMatch(Character::isDigit) ? JacobianMask.NUMBERED_OUTPUTS : output;
    }

    private static String fit(JacobianMask.Side side, long[] shape) {
        if (side.axes().size() != shape.length) {
            return "has shape " + Arrays.toString(shape) + ": give " + shape.length + " ind"
                    + (shape.length == 1 ? "ex" : "ices") + ", not " + side.axes().size();
        }
        for (int a = 0; a < shape.length; a++) {
            if (side.axes().get(a) instanceof JacobianMask.Axis.Indices ix && ix.max() >= shape[a]) {
                return "has length " + shape[a] + " along axis " + a + ", so index " + ix.max() + " is outside it";
            }
        }
        return null;
    }

    /**
     * Fast mode's direction for an input, zero at the elements whose every entry the mask leaves out (a whole
     * column), so the projection does not judge them. Rules naming single entries cannot be projected: a fast
     * mismatch there is settled by the full recheck, which honours every rule.
     */
    public static INDArray withoutMaskedColumns(JacobianMask mask, String in, INDArray u) {
        return zeroed(mask.rules().stream().filter(r -> r.output() == null && r.input().name().equals(in)).toList(),
                u, false);
    }

    /** Fast mode's direction for an output, zero at the elements whose every entry is left out (a whole row). */
    public static INDArray withoutMaskedRows(JacobianMask mask, String out, INDArray v) {
        return zeroed(mask.rules().stream().filter(r -> r.input() == null
                && JacobianMask.namesOutput(r.output().name(), out)).toList(), v, true);
    }

    private static INDArray zeroed(List<JacobianMask.Rule> rules, INDArray direction, boolean outputSide) {
        if (rules.isEmpty()) {
            return direction;
        }
        INDArray copy = direction.dup();
        long[] shape = copy.shape();
        for (long k = 0; k < copy.length(); k++) {
            long[] index = Flat.unravel(k, shape);
            for (JacobianMask.Rule rule : rules) {
                if (outputSide ? rule.covers(index, null) : rule.covers(null, index)) {
                    copy.putScalar(k, 0.0);
                    break;
                }
            }
        }
        return copy;
    }

    /**
     * The entries of block d {@code out} / d {@code in} (its rows and columns as {@code j} holds them) that the
     * mask leaves out; {@link EntryFilter#NONE} when no rule concerns the block.
     */
    public static EntryFilter of(JacobianMask mask, String out, String in, Jacobian j) {
        List<JacobianMask.Rule> rules = mask.rules().stream().filter(r -> r.concerns(out, in)).toList();
        if (rules.isEmpty()) {
            return EntryFilter.NONE;
        }
        boolean[][] masked = new boolean[j.rowCount()][j.colCount()];
        long[][] colIndex = new long[j.colCount()][];
        for (int c = 0; c < j.colCount(); c++) {
            colIndex[c] = Flat.unravel(j.col(c), j.inputShape());
        }
        for (int r = 0; r < j.rowCount(); r++) {
            long[] o = Flat.unravel(j.row(r), j.outputShape());
            for (int c = 0; c < j.colCount(); c++) {
                for (JacobianMask.Rule rule : rules) {
                    if (rule.covers(o, colIndex[c])) {
                        masked[r][c] = true;
                        break;
                    }
                }
            }
        }
        return (r, c) -> masked[r][c];
    }
}
