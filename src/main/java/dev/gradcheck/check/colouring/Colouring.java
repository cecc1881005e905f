package dev.gradcheck.check.colouring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
        int[] degree = degrees(supports, positions);
        long work = 0;
        for (int d : degree) {
            work += (long) d * d;
        }
        if (work > ColouringTuning.MAX_WORK) {
            return alone(supports.length);
        }
        return byClassAndColour(firstFit(supports, degree), new int[supports.length]);
    }

    /**
     * The one first-fit colouring of both partitions (the one-sided path's, over supports, and the window
     * pattern's rows, over their windows): in line order, each line takes the smallest colour that no earlier line
     * sharing a key with it took.
     *
     * @param keys   per line, its keys (each below {@code degree.length}, none twice)
     * @param degree per key, how many lines hold it: a key only one line holds keeps no colours
     * @return each line's colour
     */
    static int[] firstFit(int[][] keys, int[] degree) {
        BitSet[] used = new BitSet[degree.length];
        int[] colour = new int[keys.length];
        BitSet forbidden = new BitSet();
        for (int l = 0; l < keys.length; l++) {
            forbidden.clear();
            for (int k : keys[l]) {
                if (used[k] != null) {
                    forbidden.or(used[k]);
                }
            }
            int g = forbidden.nextClearBit(0);
            colour[l] = g;
            for (int k : keys[l]) {
                if (degree[k] > 1) {
                    if (used[k] == null) {
                        used[k] = new BitSet();
                    }
                    used[k].set(g);
                }
            }
        }
        return colour;
    }

    /**
     * The first-fit colouring made exact where it is not and the structure allows: in a class of lines that each
     * hold two keys, one of either of two inputs' windows (a convolution's rows: an output position's window in x
     * and an output channel's in w), lines conflict as the edges of a bipartite graph between those keys do, whose
     * least colouring takes as many colours as the most lines holding one key (König), where first fit may take
     * more (ResNet-18's layer: 384 for a class of 361 positions under 64 channels). Such classes are coloured again
     * by {@link EdgeColouring}; the others keep first fit's colours.
     *
     * @param keys    per line, its keys, one per input in the inputs' order
     * @param degree  per key, how many lines hold it
     * @param colour  first fit's colours, replaced in the classes coloured again
     * @param classOf per line, its class: lines of different classes never share a group
     * @return the colours
     */
    static int[] tightened(int[][] keys, int[] degree, int[] colour, int[] classOf) {
        int classes = Arrays.stream(classOf).max().orElse(-1) + 1;
        int[] colours = new int[classes];
        int[] most = new int[classes];
        boolean[] twoKeys = new boolean[classes];
        Arrays.fill(twoKeys, true);
        for (int l = 0; l < keys.length; l++) {
            int c = classOf[l];
            colours[c] = Math.max(colours[c], colour[l] + 1);
            twoKeys[c] &= keys[l].length == 2;
            for (int k : keys[l]) {
                most[c] = Math.max(most[c], degree[k]);
            }
        }
        int[] result = colour.clone();
        for (int c = 0; c < classes; c++) {
            if (twoKeys[c] && colours[c] > most[c]) {
                EdgeColouring.colour(keys, classOf, c, most[c], result);
            }
        }
        return result;
    }

    /** How many lines hold each key. */
    static int[] degrees(int[][] keys, int keyCount) {
        int[] degree = new int[keyCount];
        for (int[] lineKeys : keys) {
            for (int k : lineKeys) {
                degree[k]++;
            }
        }
        return degree;
    }

    /**
     * The groups: lines of one class with one colour, each group's lines ascending, the groups in the order of
     * their first lines (lines of different classes never share a group, whatever their colours).
     */
    static int[][] byClassAndColour(int[] colour, int[] classOf) {
        Map<Long, Integer> ids = new HashMap<>();
        List<List<Integer>> members = new ArrayList<>();
        for (int l = 0; l < colour.length; l++) {
            int id = ids.computeIfAbsent(((long) classOf[l] << 32) | colour[l], k -> {
                members.add(new ArrayList<>());
                return members.size() - 1;
            });
            members.get(id).add(l);
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
