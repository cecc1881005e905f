package dev.gradcheck.check.dense;

import dev.gradcheck.check.numeric.EntryFilter;
import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.numeric.Jacobian;
import dev.gradcheck.check.numeric.JacobianComparison;
import dev.gradcheck.result.BlockJacobians;
import dev.gradcheck.result.EntryRegion;
import dev.gradcheck.result.EntrySet;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.WorstElement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * What a compared block says beyond its worst entry: how many entries mismatch, where they lie (per axis of the
 * output and input element, with axes that always agree tied: the diagonal, a bias broadcast along a batch), the
 * worst few, and, when the two sides are nonzero at different entries, where each is (a backward that is zero off
 * the diagonal, or never reaches some rows). Streams over the block without keeping entries, so a block that is
 * wrong everywhere costs no more memory than the block itself.
 */
public final class BlockDiagnosis {

    /** Letters that tie an output axis to an input axis, in order of use. */
    private static final String LETTERS = "ijklmnpqrstuvw";
    /** Entries of a block by position, r and c. */
    @FunctionalInterface
    private interface Entries {
        boolean has(int r, int c);
    }

    /**
     * The judgement of the entry at row r, column c of the block: error over allowed error, the comparison's own
     * ({@link JacobianComparison#score}, with the numerical side's error bound); above 1, or NaN, mismatches.
     */
    @FunctionalInterface
    public interface EntryScore {
        double at(int r, int c);
    }

    private BlockDiagnosis() {}

    /**
     * @param kinks  entries left out because their column sits at a kink (not judged, not masked)
     * @param masked entries the spec's mask leaves out
     * @param score  error over allowed error of each entry; above 1, or NaN, mismatches
     * @param noise  numerical values at or below this are rounding noise, zero for the support comparison
     */
    public static Mismatches of(Jacobian a, Jacobian n, EntryFilter kinks, EntryFilter masked, EntryScore score,
                         double noise) {
        EntryFilter excluded = kinks.or(masked);
        double[][] av = a.values();
        double[][] nv = n.values();
        long judged = 0;
        long maskedCount = 0;
        boolean supportsDiffer = false;
        PriorityQueue<Ranked> top = new PriorityQueue<>(Comparator.comparingDouble(Ranked::rank)
                .thenComparing(Comparator.comparingInt(Ranked::position).reversed()));
        for (int r = 0; r < n.rowCount(); r++) {
            for (int c = 0; c < n.colCount(); c++) {
                if (masked.skips(r, c)) {
                    maskedCount++;
                    continue;
                }
                if (kinks.skips(r, c)) {
                    continue;
                }
                judged++;
                supportsDiffer |= (av[r][c] != 0) != !(Math.abs(nv[r][c]) <= noise);
                double s = score.at(r, c);
                if (!(s <= 1)) {
                    top.add(new Ranked(r * n.colCount() + c, s));
                    if (top.size() > Mismatches.TOP) {
                        top.poll();
                    }
                }
            }
        }
        EntrySet mismatching = find(n, excluded, (r, c) -> !(score.at(r, c) <= 1));
        if (mismatching.count() == 0) {
            return new Mismatches(0, judged, maskedCount, null, List.of(), null, null);
        }
        List<Ranked> sorted = new ArrayList<>(top);
        sorted.sort(Comparator.comparingDouble(Ranked::rank).reversed().thenComparingInt(Ranked::position));
        List<WorstElement> worst = new ArrayList<>();
        for (Ranked e : sorted) {
            int r = e.position() / n.colCount();
            int c = e.position() % n.colCount();
            worst.add(new WorstElement(Flat.unravel(n.row(r), n.outputShape()), Flat.unravel(n.col(c),
                    n.inputShape()), av[r][c], nv[r][c]));
        }
        EntrySet analytic = supportsDiffer ? find(n, excluded, (r, c) -> av[r][c] != 0) : null;
        EntrySet numerical = supportsDiffer ? find(n, excluded, (r, c) -> !(Math.abs(nv[r][c]) <= noise)) : null;
        return new Mismatches(mismatching.count(), judged, maskedCount, mismatching.region(), worst, analytic,
                numerical);
    }

    /** The block's two sides with each entry's mark, for a run that asked for the matrices. */
    public static BlockJacobians jacobians(Jacobian a, Jacobian n, EntryFilter kinks, EntryFilter masked,
                                    EntryScore score) {
        String[] marks = new String[n.rowCount()];
        double[][] analytic = new double[n.rowCount()][];
        double[][] numerical = new double[n.rowCount()][];
        for (int r = 0; r < n.rowCount(); r++) {
            StringBuilder sb = new StringBuilder(n.colCount());
            for (int c = 0; c < n.colCount(); c++) {
                sb.append(masked.skips(r, c) ? BlockJacobians.MASKED : kinks.skips(r, c) ? BlockJacobians.KINK
                        : score.at(r, c) <= 1 ? BlockJacobians.AGREES
                        : BlockJacobians.MISMATCH);
            }
            marks[r] = sb.toString();
            analytic[r] = a.values()[r].clone();
            numerical[r] = n.values()[r].clone();
        }
        return new BlockJacobians(n.outputShape(), n.inputShape(), n.rows() == null ? null : n.rows().clone(),
                n.cols() == null ? null : n.cols().clone(), numerical, analytic, marks);
    }

    /** A mismatching entry's rank in the top list (a NaN score is the worst of all) and flat block position. */
    private record Ranked(int position, double score) {
        double rank() {
            return Double.isNaN(score) ? Double.POSITIVE_INFINITY : score;
        }
    }

    /** How many judged entries are in the set, and the smallest region (per axis, with ties) that holds them. */
    private static EntrySet find(Jacobian n, EntryFilter excluded, Entries set) {
        long[] outShape = n.outputShape();
        long[] inShape = n.inputShape();
        int p = outShape.length;
        int q = inShape.length;
        boolean[][] outSeen = seen(outShape);
        boolean[][] inSeen = seen(inShape);
        boolean[][] tie = new boolean[p][q];
        for (int x = 0; x < p; x++) {
            for (int y = 0; y < q; y++) {
                tie[x][y] = outShape[x] == inShape[y] && outShape[x] > 1;
            }
        }
        long[][] colIndex = columnIndices(n);
        long count = 0;
        for (int r = 0; r < n.rowCount(); r++) {
            long[] o = Flat.unravel(n.row(r), outShape);
            for (int c = 0; c < n.colCount(); c++) {
                if (excluded.skips(r, c) || !set.has(r, c)) {
                    continue;
                }
                count++;
                long[] i = colIndex[c];
                mark(outSeen, o);
                mark(inSeen, i);
                for (int x = 0; x < p; x++) {
                    for (int y = 0; y < q; y++) {
                        tie[x][y] &= o[x] == i[y];
                    }
                }
            }
        }
        if (count == 0) {
            return new EntrySet(0, null);
        }
        int[] partner = ties(tie, outSeen, inSeen, count);
        long inside = regionSize(n, excluded, outSeen, inSeen, partner, colIndex);
        return new EntrySet(count, region(outSeen, inSeen, partner, inside == count));
    }

    private static boolean[][] seen(long[] shape) {
        boolean[][] seen = new boolean[shape.length][];
        for (int d = 0; d < shape.length; d++) {
            seen[d] = new boolean[Math.toIntExact(shape[d])];
        }
        return seen;
    }

    private static void mark(boolean[][] seen, long[] index) {
        for (int d = 0; d < index.length; d++) {
            seen[d][(int) index[d]] = true;
        }
    }

    private static long[][] columnIndices(Jacobian n) {
        long[][] index = new long[n.colCount()][];
        for (int c = 0; c < n.colCount(); c++) {
            index[c] = Flat.unravel(n.col(c), n.inputShape());
        }
        return index;
    }

    /**
     * For each output axis, the input axis it is tied to, or -1. A tie needs two entries at least and an axis
     * that varies (on a constant axis "equal indices" says nothing); each axis takes one partner, in order.
     */
    private static int[] ties(boolean[][] tie, boolean[][] outSeen, boolean[][] inSeen, long count) {
        int[] partner = new int[outSeen.length];
        boolean[] taken = new boolean[inSeen.length];
        for (int x = 0; x < outSeen.length; x++) {
            partner[x] = -1;
            if (count < 2 || cardinality(outSeen[x]) < 2) {
                continue;
            }
            for (int y = 0; y < inSeen.length; y++) {
                if (tie[x][y] && !taken[y]) {
                    partner[x] = y;
                    taken[y] = true;
                    break;
                }
            }
        }
        return partner;
    }

    /** How many judged entries lie in the region: equal to the set's count when the region is exact. */
    private static long regionSize(Jacobian n, EntryFilter excluded, boolean[][] outSeen, boolean[][] inSeen,
                                   int[] partner, long[][] colIndex) {
        long inside = 0;
        for (int r = 0; r < n.rowCount(); r++) {
            long[] o = Flat.unravel(n.row(r), n.outputShape());
            if (!within(outSeen, o)) {
                continue;
            }
            for (int c = 0; c < n.colCount(); c++) {
                long[] i = colIndex[c];
                if (!excluded.skips(r, c) && within(inSeen, i) && tied(o, i, partner)) {
                    inside++;
                }
            }
        }
        return inside;
    }

    private static boolean within(boolean[][] seen, long[] index) {
        for (int d = 0; d < index.length; d++) {
            if (!seen[d][(int) index[d]]) {
                return false;
            }
        }
        return true;
    }

    private static boolean tied(long[] o, long[] i, int[] partner) {
        for (int x = 0; x < partner.length; x++) {
            if (partner[x] >= 0 && o[x] != i[partner[x]]) {
                return false;
            }
        }
        return true;
    }

    private static EntryRegion region(boolean[][] outSeen, boolean[][] inSeen, int[] partner, boolean exact) {
        String[] inTokens = new String[inSeen.length];
        List<String> out = new ArrayList<>();
        int letter = 0;
        for (int x = 0; x < outSeen.length; x++) {
            String token = indices(outSeen[x]);
            if (partner[x] >= 0) {
                String name = String.valueOf(LETTERS.charAt(letter++ % LETTERS.length()));
                token = token.equals(":") ? name : name + "=" + token;
                inTokens[partner[x]] = token;
            }
            out.add(token);
        }
        List<String> in = new ArrayList<>();
        for (int y = 0; y < inSeen.length; y++) {
            in.add(inTokens[y] != null ? inTokens[y] : indices(inSeen[y]));
        }
        return new EntryRegion(out, in, exact);
    }

    /** {@code :}, {@code 2}, {@code 1-3}, {@code {0, 4-5}}, or {@code (37 of 100)} when scattered. */
    public static String indices(boolean[] seen) {
        int k = cardinality(seen);
        if (k == seen.length) {
            return ":";
        }
        List<String> runs = new ArrayList<>();
        for (int i = 0; i < seen.length; i++) {
            if (!seen[i]) {
                continue;
            }
            int j = i;
            while (j + 1 < seen.length && seen[j + 1]) {
                j++;
            }
            runs.add(i == j ? Integer.toString(i) : i + "-" + j);
            i = j;
        }
        if (runs.size() > DenseTuning.MAX_RUNS) {
            return "(" + k + " of " + seen.length + ")";
        }
        return runs.size() == 1 ? runs.get(0) : "{" + String.join(", ", runs) + "}";
    }

    private static int cardinality(boolean[] seen) {
        int k = 0;
        for (boolean b : seen) {
            k += b ? 1 : 0;
        }
        return k;
    }
}
