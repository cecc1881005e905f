package dev.gradcheck.check.twosided;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Lines of a two-sided check that {@link Culprits} located as holding what the guessed pattern does not: output rows
 * whose backward pass, and input columns whose difference, a check then takes alone (each its own group), and the
 * entries outside the pattern that those lines hold (extras), judged like the pattern's own. Every extra's row and
 * column are located lines, so both its values are exact and no other group's evaluation holds it.
 */
final class LocatedLines {

    private final TreeSet<Integer> rows = new TreeSet<>();
    private final Map<String, TreeSet<Integer>> columns = new HashMap<>();
    /** Per input, its extras as row · (input size) + column. */
    private final Map<String, TreeSet<Long>> extras = new HashMap<>();

    Set<Integer> rows() {
        return rows;
    }

    Set<Integer> columns(String in) {
        return columns.computeIfAbsent(in, k -> new TreeSet<>());
    }

    boolean addRow(int p) {
        return rows.add(p);
    }

    boolean addColumn(String in, int l) {
        return columns(in).add(l);
    }

    void addExtra(String in, long inputSize, int p, int l) {
        extras.computeIfAbsent(in, k -> new TreeSet<>()).add(p * inputSize + l);
    }

    /** Whether a located line holds an entry outside the pattern. */
    boolean hasExtras() {
        return extras.values().stream().anyMatch(e -> !e.isEmpty());
    }

    /** How many lines are located, rows and columns of every input. */
    int count() {
        return rows.size() + columns.values().stream().mapToInt(Set::size).sum();
    }

    /**
     * A side's groups with the located lines taken out and put back as groups of their own, after the others (a
     * group left empty dropped): a subset of a group shares no more than the group did.
     */
    static int[][] isolate(int[][] groups, Set<Integer> located) {
        if (located.isEmpty()) {
            return groups;
        }
        java.util.List<int[]> out = new java.util.ArrayList<>();
        for (int[] g : groups) {
            int[] kept = Arrays.stream(g).filter(l -> !located.contains(l)).toArray();
            if (kept.length > 0) {
                out.add(kept);
            }
        }
        located.forEach(l -> out.add(new int[] {l}));
        return out.toArray(int[][]::new);
    }

    /**
     * A side's groups of an earlier run with these lines located taken out, every group keeping its index (left
     * empty where all its members are located) and its members their weights, and each located line that shared a
     * group put back alone (weight 1) after them: a round that evaluates only the groups its lines touch
     * ({@link TouchedGroups}) reads the untouched ones' values as the earlier run took them.
     *
     * @param touched the indices of the groups that lost members, ascending
     */
    record Restricted(int[][] lines, double[][] weights, int[] touched) {

        static Restricted of(int[][] groups, double[][] weights, Set<Integer> located) {
            java.util.List<int[]> lines = new java.util.ArrayList<>(Arrays.asList(groups));
            java.util.List<double[]> w = new java.util.ArrayList<>(Arrays.asList(weights));
            java.util.List<Integer> touched = new java.util.ArrayList<>();
            java.util.List<Integer> alone = new java.util.ArrayList<>();
            for (int g = 0; g < groups.length; g++) {
                int[] members = groups[g];
                if (Arrays.stream(members).noneMatch(located::contains)) {
                    continue; // untouched
                }
                touched.add(g);
                if (members.length == 1) {
                    continue; // already alone: evaluated again where it is
                }
                double[] of = weights[g];
                int[] keep = java.util.stream.IntStream.range(0, members.length)
                        .filter(k -> !located.contains(members[k])).toArray();
                lines.set(g, Arrays.stream(keep).map(k -> members[k]).toArray());
                w.set(g, Arrays.stream(keep).mapToDouble(k -> of[k]).toArray());
                Arrays.stream(members).filter(located::contains).forEach(alone::add);
            }
            alone.stream().sorted().forEach(l -> {
                lines.add(new int[] {l});
                w.add(new double[] {1});
            });
            return new Restricted(lines.toArray(int[][]::new), w.toArray(double[][]::new),
                    touched.stream().mapToInt(Integer::intValue).toArray());
        }

        /** Whether group g is evaluated again: one that lost members, or a located line put back alone. */
        boolean again(int g, int before) {
            return g >= before || Arrays.binarySearch(touched, g) >= 0;
        }
    }

    /** Input {@code in}'s extras, indexed for a check: by row, by column, and their place in storage. */
    Extras extras(String in, long inputSize) {
        long[] keys = extras.getOrDefault(in, new TreeSet<>()).stream().mapToLong(Long::longValue).toArray();
        Map<Integer, int[]> byRow = new TreeMap<>();
        Map<Integer, int[]> byColumn = new TreeMap<>();
        Map<Integer, java.util.List<Integer>> rowLists = new TreeMap<>();
        Map<Integer, java.util.List<Integer>> columnLists = new TreeMap<>();
        for (long key : keys) {
            int p = (int) (key / inputSize);
            int l = (int) (key % inputSize);
            rowLists.computeIfAbsent(p, k -> new java.util.ArrayList<>()).add(l);
            columnLists.computeIfAbsent(l, k -> new java.util.ArrayList<>()).add(p);
        }
        rowLists.forEach((p, ls) -> byRow.put(p, ls.stream().mapToInt(Integer::intValue).toArray()));
        columnLists.forEach((l, ps) -> byColumn.put(l, ps.stream().mapToInt(Integer::intValue).toArray()));
        return new Extras(keys, inputSize, byRow, byColumn);
    }

    /**
     * One input's entries outside the pattern, row-major: the k-th is stored at k past the pattern's entries.
     *
     * @param keys row · inputSize + column, ascending
     */
    record Extras(long[] keys, long inputSize, Map<Integer, int[]> byRow, Map<Integer, int[]> byColumn) {

        private static final int[] NONE = {};

        int size() {
            return keys.length;
        }

        /** Where entry (p, l) is among the extras. */
        int index(int p, int l) {
            return Arrays.binarySearch(keys, p * inputSize + l);
        }

        /** Row p's extras' columns, ascending. */
        int[] ofRow(int p) {
            return byRow.getOrDefault(p, NONE);
        }

        /** Column l's extras' rows, ascending. */
        int[] ofColumn(int l) {
            return byColumn.getOrDefault(l, NONE);
        }
    }
}
