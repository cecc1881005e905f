package dev.gradcheck.spec;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The masks a layer or network spec gives as inputs (docs/dl4j.md#masks): a layer's {@code mask}; a network's
 * {@code mask} (its one input's), {@code in_mask} (a graph's input {@code in}) and {@code labels_mask}. Each is
 * [batch, steps] as DL4J's {@code setMaskArray} takes it, and holds only 0 (padding) and 1 (a real step): a mask
 * drawn at random, or of another shape, would check a function no network computes. What DL4J itself makes of a
 * mask is seen where DL4J is (op/). The library API ({@code GradCheck}) holds its masks to the same rules through
 * {@link #apiErrors}.
 */
public final class MaskInputs {

    private static final String MASK = "mask";
    private static final String SUFFIX = "_mask";
    private static final String LABELS = "labels";

    /** How a spec gives a mask's values, the end of a values error. */
    private static final String SPEC_VALUES = "give them with init: {values: [[1, 1, 0], ...]} (or a constant 1)";
    /** How the library API gives them. */
    private static final String API_VALUES = "give an array of 0s and 1s";

    private final Problems problems;
    private final String howToGive;

    MaskInputs(Problems problems) {
        this(problems, SPEC_VALUES);
    }

    private MaskInputs(Problems problems, String howToGive) {
        this.problems = problems;
        this.howToGive = howToGive;
    }

    /**
     * What is wrong with the masks among the library API's inputs (each given as values), one message each, as a
     * spec's masks are judged: empty where they are 0s and 1s of [batch, steps].
     */
    public static List<String> apiErrors(List<InputSpec> inputs, boolean network) {
        Problems problems = new Problems();
        new MaskInputs(problems, API_VALUES).check(inputs, network);
        return problems.sorted().stream().map(SpecError::message).toList();
    }

    /** Whether an input of a layer spec ({@code network} false) or a network spec is a mask. */
    static boolean isMask(String name, boolean network) {
        return name.equals(MASK) || network && name.endsWith(SUFFIX);
    }

    /** Every mask among the inputs checked: its rank, its values, its sizes against the input it masks. */
    void check(List<InputSpec> inputs, boolean network) {
        for (InputSpec in : inputs) {
            if (isMask(in.name(), network)) {
                values(in);
                masked(in, inputs, network).ifPresent(target -> shape(in, target));
            }
        }
    }

    /** The input a mask masks: labels, a named input, or the layer's or network's own (the first written). */
    private static Optional<InputSpec> masked(InputSpec mask, List<InputSpec> inputs, boolean network) {
        String name = mask.name().equals(MASK) ? null : mask.name().substring(0, mask.name().length()
                - SUFFIX.length());
        return inputs.stream().filter(i -> name == null ? !isMask(i.name(), network) && !i.name().equals(LABELS)
                : i.name().equals(name)).findFirst();
    }

    private void values(InputSpec mask) {
        String bad = "is drawn at random";
        if (mask.init() instanceof Init.Values v) {
            bad = Arrays.stream(v.flat()).filter(x -> x != 0 && x != 1).boxed().findFirst().map(x -> "holds " + x)
                    .orElse(null);
        } else if (mask.init() instanceof Init.Constant c) {
            bad = c.value() == 0 || c.value() == 1 ? null : "is the constant " + c.value();
        }
        if (bad != null) {
            problems.add(mask.pos(), "mask '" + mask.name() + "' " + bad + ": a mask holds 1 for a real step and 0"
                    + " for padding; " + howToGive);
        }
    }

    private void shape(InputSpec mask, InputSpec target) {
        long[] m = mask.shape();
        long[] t = target.shape();
        String steps = t.length == 3 ? t[2] + (t[1] != t[2] ? " (or " + t[1] + " in NWC)" : "") : null;
        boolean fits = m.length == 2 && t.length > 0 && m[0] == t[0]
                && (t.length != 3 || m[1] == t[2] || m[1] == t[1]);
        if (!fits) {
            problems.add(mask.pos(), "mask '" + mask.name() + "' has shape " + Arrays.toString(m) + "; masking '"
                    + target.name() + "' " + Arrays.toString(t) + " it is [batch, steps]: ["
                    + (t.length > 0 ? t[0] : "batch") + ", " + (steps != null ? steps : "steps") + "]");
        }
    }
}
