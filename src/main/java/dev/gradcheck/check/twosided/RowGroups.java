package dev.gradcheck.check.twosided;

import dev.gradcheck.check.colouring.CompressedJacobians;
import dev.gradcheck.check.colouring.Lightest;

/**
 * The run's groups of output rows, one backward pass each: each group's weights, each row's weight in its backward
 * pass and the strictest other member of its group (-1: alone), whose value the rest of an entry is judged as.
 */
record RowGroups(int[][] groups, double[][] weights, double[] weightOf, int[] strictestOther) {

    /** The groups' weights, drawn from the seed on the output's dtype grid ({@code bits} mantissa bits). */
    static RowGroups of(int[][] groups, int rows, int bits, long seed, String out) {
        double[][] weights = new double[groups.length][];
        double[] weightOf = new double[rows];
        int[] strictestOther = new int[rows];
        for (int g = 0; g < groups.length; g++) {
            int[] members = groups[g];
            weights[g] = members.length == 1 ? new double[] {1}
                    : CompressedJacobians.weights(seed, "two-sided:rows:" + out + ":" + g, members.length, bits);
            Lightest light = Lightest.of(weights[g]);
            for (int k = 0; k < members.length; k++) {
                weightOf[members[k]] = weights[g][k];
                strictestOther[members[k]] = members.length == 1 ? -1 : members[light.otherThan(k)];
            }
        }
        return new RowGroups(groups, weights, weightOf, strictestOther);
    }
}
