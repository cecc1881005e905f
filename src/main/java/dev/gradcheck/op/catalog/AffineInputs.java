package dev.gradcheck.op.catalog;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The inputs an ND4J catalog op's forward is affine in by its definition, each with the other inputs held: a
 * convolution is a sum of input times weight products plus the bias, a matrix product a sum of products of its
 * operands. Along such an input a finite difference has no truncation error, only rounding, so the checker may take
 * a near entry's difference at a larger step (docs/checking.md, "Declared affine inputs"). The table is fixed and
 * reviewed: an op enters only where its definition says so, never because a check measured it; a plugin's op, a
 * DL4J layer, a graph or a SameDiff model's node never get a declaration (their functions report {@link #NONE}).
 *
 * @param op     the catalog op the declaration is for (the report names it)
 * @param inputs the names of the function's inputs the forward is affine in
 */
public record AffineInputs(String op, Set<String> inputs) {

    /** No input is declared affine: every function but a one-op ND4J build of an op in the table. */
    public static final AffineInputs NONE = new AffineInputs("", Set.of());

    /** Per op, the positions of the arguments it is affine in (input, weights, bias; both operands). */
    private static final Map<String, List<Integer>> TABLE = Map.of(
            "conv1d", List.of(0, 1, 2),
            "conv2d", List.of(0, 1, 2),
            "conv3dnew", List.of(0, 1, 2),
            "depthwise_conv2d", List.of(0, 1, 2),
            "deconv2d", List.of(0, 1, 2),
            "matmul", List.of(0, 1),
            "mmul", List.of(0, 1));

    public AffineInputs {
        inputs = Set.copyOf(inputs);
    }

    /**
     * The declaration for a one-op ND4J build of catalog op {@code op} whose inputs, in argument order, are
     * {@code inputNames}; {@link #NONE} for an op the table does not hold.
     */
    public static AffineInputs declared(String op, List<String> inputNames) {
        List<Integer> positions = TABLE.get(op);
        if (positions == null) {
            return NONE;
        }
        Set<String> names = new java.util.LinkedHashSet<>();
        for (int p : positions) {
            if (p < inputNames.size()) {
                names.add(inputNames.get(p));
            }
        }
        return new AffineInputs(op, names);
    }

    /** Whether the forward is declared affine in this input. */
    public boolean contains(String input) {
        return inputs.contains(input);
    }
}
