package dev.gradcheck.check.colouring;

import dev.gradcheck.check.numeric.Flat;
import dev.gradcheck.check.twosided.TwoSidedCompression;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * A guessed pattern of nonzeros of one output's Jacobian blocks, as windows: output element o depends on the
 * elements of input X inside a box, one interval per dimension of X, each either the whole dimension or
 * [stride·o_d + offset, … + width − 1] for one output dimension d (clipped to the array); the stride may be negative,
 * a window running backwards as o_d grows (reverse, a flipped kernel). Convolutions, pooling,
 * matmul, softmax, normalisation over an axis, reductions, broadcasting and elementwise ops all have such
 * patterns. It is only a guess ({@link PatternProbe}): it decides which lines share an evaluation, never a verdict
 * ({@link TwoSidedCompression} judges what falls outside it).
 *
 * <p>From the windows come both colourings without looking at pairs: rows whose windows have the same residue
 * (lower end mod width) in every bounded dimension either have equal windows or windows apart by a width somewhere,
 * so they conflict only when their windows are equal for some input; columns with the same residues either are
 * equal in every bounded dimension (and then conflict: they are told apart by their whole-dimension coordinates)
 * or lie a width apart somewhere, out of reach of one window.
 */
public final class WindowPattern {

    /**
     * One dimension of an input's window: the whole dimension ({@code outDim == WHOLE}), a fixed interval
     * ({@code stride == 0}), or one that moves by {@code stride} per step of output dimension {@code outDim}.
     */
    public record Dim(int outDim, int stride, int offset, int width) {
        static final int WHOLE = -1;

        public static Dim whole() {
            return new Dim(WHOLE, 0, 0, 0);
        }

        boolean isWhole() {
            return outDim == WHOLE;
        }

        /** The window's lower end for output index o, before clipping. */
        int lo(int[] o) {
            return stride == 0 ? offset : stride * o[outDim] + offset;
        }
    }

    /** One input's windows, a dimension each. */
    public record Input(String name, long[] shape, Dim[] dims) {}

    private final long[] outShape;
    private final List<Input> inputs;
    /** Each input's row windows, computed once ({@link #rankInRow} asks for one per entry). */
    private final Map<Input, int[]> boxes = new java.util.IdentityHashMap<>();
    /** The groups, computed once: the path's cost estimate and its evaluations both ask for them. */
    private int[][] rowGroups;
    private final Map<Input, int[][]> columnGroups = new java.util.IdentityHashMap<>();

    public WindowPattern(long[] outShape, List<Input> inputs) {
        this.outShape = outShape;
        this.inputs = List.copyOf(inputs);
    }

    public List<Input> inputs() {
        return inputs;
    }

    public int rows() {
        return Math.toIntExact(Flat.size(outShape));
    }

    private static int[] unravel(long flat, long[] shape) {
        long[] l = Flat.unravel(flat, shape);
        int[] i = new int[l.length];
        for (int k = 0; k < l.length; k++) {
            i[k] = (int) l[k];
        }
        return i;
    }

    /** Row p's window in input x: per dimension the clipped [lo, hi] (hi < lo when empty), lo first. */
    public int[][] window(int p, Input x) {
        int[] o = unravel(p, outShape);
        int[][] box = new int[x.dims().length][];
        for (int k = 0; k < box.length; k++) {
            Dim d = x.dims()[k];
            int last = (int) x.shape()[k] - 1;
            box[k] = d.isWhole() ? new int[] {0, last}
                    : new int[] {Math.max(0, d.lo(o)), Math.min(last, d.lo(o) + d.width() - 1)};
        }
        return box;
    }

    /** How many elements a box holds. */
    public static long size(int[][] box) {
        long n = 1;
        for (int[] b : box) {
            n *= Math.max(0, b[1] - b[0] + 1);
        }
        return n;
    }

    /** Every flat index inside a box of an array of this shape, ascending. */
    public static void forEach(int[][] box, long[] shape, IntConsumer flat) {
        if (size(box) == 0) {
            return;
        }
        int rank = box.length;
        int[] at = new int[rank];
        for (int k = 0; k < rank; k++) {
            at[k] = box[k][0];
        }
        while (true) {
            long f = 0;
            for (int k = 0; k < rank; k++) {
                f = f * shape[k] + at[k];
            }
            flat.accept((int) f);
            int k = rank - 1;
            while (k >= 0 && at[k] == box[k][1]) {
                at[k] = box[k][0];
                k--;
            }
            if (k < 0) {
                return;
            }
            at[k]++;
        }
    }

    /**
     * The position of the element at {@code at} (an index of an input, inside row p's window) among the window's
     * elements in ascending order, from that input's {@link #rowBoxes}, without building the window.
     */
    public static int rankInRow(int p, int[] box, long[] at) {
        int rank = at.length;
        long r = 0;
        for (int k = 0; k < rank; k++) {
            int lo = box[(p * rank + k) * 2];
            int hi = box[(p * rank + k) * 2 + 1];
            r = r * (hi - lo + 1) + (at[k] - lo);
        }
        return (int) r;
    }

    /** Every row's window in input x, flat: row p's dimension k at [(p·rank + k)·2], lower end then upper. */
    public int[] rowBoxes(Input x) {
        return boxes.computeIfAbsent(x, this::boxes);
    }

    private int[] boxes(Input x) {
        int rank = x.dims().length;
        int[] flat = new int[Math.multiplyExact(rows(), rank * 2)];
        for (int p = 0; p < rows(); p++) {
            int[][] box = window(p, x);
            for (int k = 0; k < rank; k++) {
                flat[(p * rank + k) * 2] = box[k][0];
                flat[(p * rank + k) * 2 + 1] = box[k][1];
            }
        }
        return flat;
    }

    /** Whether flat index {@code flat} lies inside a box. */
    public static boolean contains(int[][] box, long[] shape, int flat) {
        long[] at = Flat.unravel(flat, shape);
        for (int k = 0; k < box.length; k++) {
            if (at[k] < box[k][0] || at[k] > box[k][1]) {
                return false;
            }
        }
        return true;
    }

    /** The rows whose window in input x holds column {@code col}: a box over the output's dimensions. */
    public int[][] column(Input x, int col) {
        long[] at = Flat.unravel(col, x.shape());
        int[][] box = new int[outShape.length][];
        for (int d = 0; d < box.length; d++) {
            box[d] = new int[] {0, (int) outShape[d] - 1};
        }
        for (int k = 0; k < at.length; k++) {
            Dim d = x.dims()[k];
            if (d.isWhole()) {
                continue;
            }
            long c = at[k];
            if (d.stride() == 0) {
                if (c < d.offset() || c > d.offset() + d.width() - 1) {
                    box[0] = new int[] {0, -1}; // no row reaches it
                }
                continue;
            }
            int[] b = box[d.outDim()];
            int[] reach = rowsReaching(c, d);
            b[0] = Math.max(b[0], reach[0]);
            b[1] = Math.min(b[1], reach[1]);
        }
        return box;
    }

    /**
     * The output indices o along d's output dimension whose window holds coordinate c: stride·o + offset ≤ c ≤
     * stride·o + offset + width − 1, that is stride·o in [c − offset − width + 1, c − offset]. Dividing by a negative
     * stride (a window running backwards) swaps the ends.
     */
    static int[] rowsReaching(long c, Dim d) {
        long low = c - d.offset() - d.width() + 1;
        long high = c - d.offset();
        long s = d.stride();
        long first = s > 0 ? -Math.floorDiv(-low, s) : -Math.floorDiv(-high, s);
        long last = s > 0 ? Math.floorDiv(high, s) : Math.floorDiv(low, s);
        return new int[] {(int) Math.max(Integer.MIN_VALUE, first), (int) Math.min(Integer.MAX_VALUE, last)};
    }

    public long[] outShape() {
        return outShape;
    }

    /**
     * Groups of rows whose windows share no element in any input: per residue class of the windows' lower ends,
     * first fit over the rows in order, a row kept from the groups of rows with its window in some input.
     */
    public int[][] rowGroups() {
        if (rowGroups == null) {
            rowGroups = colourRows();
        }
        return rowGroups;
    }

    /**
     * The rows' colouring ({@link Colouring#firstFit}): a row's class is its residues, its keys its windows' lower
     * ends per input (within a class, rows conflict only where some input's windows are equal).
     */
    private int[][] colourRows() {
        Map<List<Integer>, Integer> classes = new HashMap<>();
        Map<List<Object>, Integer> keyIds = new HashMap<>();
        int[] classOf = new int[rows()];
        int[][] keys = new int[rows()][];
        for (int p = 0; p < rows(); p++) {
            int[] o = unravel(p, outShape);
            List<Integer> residues = new ArrayList<>();
            List<List<Integer>> fibres = new ArrayList<>();
            for (int x = 0; x < inputs.size(); x++) {
                List<Integer> fibre = new ArrayList<>(List.of(x));
                for (Dim d : inputs.get(x).dims()) {
                    if (!d.isWhole()) {
                        residues.add(Math.floorMod(d.lo(o), d.width()));
                        fibre.add(d.lo(o));
                    }
                }
                fibres.add(fibre);
            }
            classOf[p] = classes.computeIfAbsent(residues, r -> classes.size());
            int cls = classOf[p];
            keys[p] = fibres.stream().mapToInt(f -> keyIds.computeIfAbsent(List.of(cls, f), k -> keyIds.size()))
                    .distinct().toArray();
        }
        return Colouring.byClassAndColour(Colouring.firstFit(keys, Colouring.degrees(keys, keyIds.size())),
                classOf);
    }

    /** Groups of input x's columns no window holds two of: by residue per bounded dimension and whole coordinates. */
    public int[][] columnGroups(Input x) {
        return columnGroups.computeIfAbsent(x, WindowPattern::colourColumns);
    }

    private static int[][] colourColumns(Input x) {
        Map<List<Long>, Integer> ids = new HashMap<>();
        List<List<Integer>> groups = new ArrayList<>();
        int n = Math.toIntExact(Flat.size(x.shape()));
        for (int c = 0; c < n; c++) {
            long[] at = Flat.unravel(c, x.shape());
            List<Long> key = new ArrayList<>();
            for (int k = 0; k < at.length; k++) {
                Dim d = x.dims()[k];
                key.add(d.isWhole() ? at[k] : Math.floorMod(at[k], (long) d.width()));
            }
            int id = ids.computeIfAbsent(key, kk -> {
                groups.add(new ArrayList<>());
                return groups.size() - 1;
            });
            groups.get(id).add(c);
        }
        return toArrays(groups);
    }

    private static int[][] toArrays(List<List<Integer>> groups) {
        int[][] out = new int[groups.size()][];
        for (int g = 0; g < out.length; g++) {
            out[g] = groups.get(g).stream().mapToInt(Integer::intValue).toArray();
        }
        return out;
    }
}
