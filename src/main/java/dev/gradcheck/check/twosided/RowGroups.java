package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.CompressedJacobians;
import dev.gradcheck.check.colouring.Lightest;

/**
 * The run's groups of output rows, one backward pass each: each group's weights, each row's weight in its backward
 * pass, the strictest other member of its group (-1: alone), whose value the rest of an entry is judged as (the
 * lightest: divided by its weight, the rest is largest), and the quietest other member (the smallest output), whose
 * finite-difference error bound is the smallest, so that the rest is judged as strictly as the dense check judges
 * the value of whichever other row put it there; and each group's quietest member, whose bound a value outside the
 * pattern is judged with. {@code strictestWeight}: each row's strictest other member's weight (1: alone), read in
 * row order by the column pass, once per entry, where its member's own position would be a read anywhere in the
 * array.
 */
record RowGroups(int[][] groups, double[][] weights, double[] weightOf, int[] strictestOther, int[] quietestOther,
                 int[] quietest, double[] strictestWeight) {

    /**
     * The groups' weights, drawn from the seed on the output's dtype grid ({@code bits} mantissa bits).
     *
     * @param magnitudes each row's output |y|, which its rounding bound is relative to
     */
    static RowGroups of(int[][] groups, double[] magnitudes, int bits, long seed, String out) {
        double[][] weights = new double[groups.length][];
        for (int g = 0; g < groups.length; g++) {
            weights[g] = groups[g].length == 1 ? new double[] {1}
                    : CompressedJacobians.weights(seed, "two-sided:rows:" + out + ":" + g, groups[g].length, bits);
        }
        return weighted(groups, weights, magnitudes);
    }

    /** The groups with these weights (a group may be empty: its members all located, {@link LocatedLines}). */
    static RowGroups weighted(int[][] groups, double[][] weights, double[] magnitudes) {
        int rows = magnitudes.length;
        double[] weightOf = new double[rows];
        int[] strictestOther = new int[rows];
        int[] quietestOther = new int[rows];
        int[] quietest = new int[groups.length];
        for (int g = 0; g < groups.length; g++) {
            int[] members = groups[g];
            if (members.length == 0) {
                quietest[g] = -1;
                continue;
            }
            Lightest light = Lightest.of(weights[g]);
            Lightest quiet = Lightest.of(java.util.Arrays.stream(members).mapToDouble(p -> Math.abs(magnitudes[p]))
                    .toArray());
            quietest[g] = members[quiet.first()];
            for (int k = 0; k < members.length; k++) {
                weightOf[members[k]] = weights[g][k];
                strictestOther[members[k]] = members.length == 1 ? -1 : members[light.otherThan(k)];
                quietestOther[members[k]] = members.length == 1 ? -1 : members[quiet.otherThan(k)];
            }
        }
        double[] strictestWeight = new double[rows];
        for (int p = 0; p < rows; p++) {
            strictestWeight[p] = strictestOther[p] < 0 ? 1 : weightOf[strictestOther[p]];
        }
        return new RowGroups(groups, weights, weightOf, strictestOther, quietestOther, quietest, strictestWeight);
    }
}
