package dev.gradcheck.check.colouring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Groups of lines whose supports do not overlap (Curtis, Powell and Reid's colouring of the column intersection
 * graph): lines in one group can share one evaluation, because every position of the evaluated vector belongs to
 * at most one of them. Greedy and first-fit in line order, so the groups depend only on the supports.
 */
final class Colouring {

    private Colouring() {}

    /**
     * @param supports  for each line, the positions (ascending, each below {@code positions}) where it is nonzero
     * @param positions the number of positions
     * @return the groups, each a list of lines in ascending order, ordered by their first line; every line in
     *         exactly one group, each alone when the pattern is too dense to colour within
     *         {@link ColouringTuning#MAX_WORK}
     */
    static int[][] groups(int[][] supports, int positions) {
        int lines = supports.length;
        int[] degree = new int[positions];
        for (int[] support : supports) {
            for (int p : support) {
                degree[p]++;
            }
        }
        long work = 0;
        for (int d : degree) {
            work += (long) d * d;
        }
        if (work > ColouringTuning.MAX_WORK) {
            return alone(lines);
        }
        int[][] linesAt = new int[positions][];
        for (int p = 0; p < positions; p++) {
            linesAt[p] = new int[degree[p]];
        }
        int[] filled = new int[positions];
        for (int l = 0; l < lines; l++) {
            for (int p : supports[l]) {
                linesAt[p][filled[p]++] = l; // ascending in l
            }
        }
        int[] group = new int[lines];
        int[] forbiddenFor = new int[lines + 1]; // group g is forbidden for line l when forbiddenFor[g] == l + 1
        List<List<Integer>> members = new ArrayList<>();
        for (int l = 0; l < lines; l++) {
            for (int p : supports[l]) {
                for (int other : linesAt[p]) {
                    if (other >= l) {
                        break;
                    }
                    forbiddenFor[group[other]] = l + 1;
                }
            }
            int g = 0;
            while (g < members.size() && forbiddenFor[g] == l + 1) {
                g++;
            }
            if (g == members.size()) {
                members.add(new ArrayList<>());
            }
            group[l] = g;
            members.get(g).add(l);
        }
        int[][] result = new int[members.size()][];
        for (int g = 0; g < result.length; g++) {
            result[g] = members.get(g).stream().mapToInt(Integer::intValue).toArray();
        }
        return result;
    }

    /** Every line in a group of its own: the dense evaluation. */
    static int[][] alone(int lines) {
        int[][] result = new int[lines][];
        for (int l = 0; l < lines; l++) {
            result[l] = new int[] {l};
        }
        return result;
    }

    static String describe(int[][] groups) {
        return groups.length + " groups: " + Arrays.deepToString(groups);
    }
}
