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
 * [stride·o_d + offset, … + width − 1] for one output dimension d (clipped to the array, or wrapping round it where
 * the input is padded circularly); the stride may be negative, a window running backwards as o_d grows (reverse, a
 * flipped kernel). Convolutions, pooling, matmul, softmax, normalisation over an axis, reductions, broadcasting and
 * elementwise ops all have such patterns. It is only a guess ({@link PatternProbe}): it decides which lines share an evaluation, never a verdict
 * ({@link TwoSidedCompression} judges what falls outside it).
 *
 * <p>From the windows come both colourings without looking at pairs: rows whose windows have the same residue
 * (lower end mod width) in every bounded dimension either have equal windows or windows apart by a width somewhere,
 * so they conflict only when their windows are equal for some input; columns with the same residues either are
 * equal in every bounded dimension (and then conflict: they are told apart by their whole-dimension coordinates)
 * or lie a width apart somewhere, out of reach of one window. Round a dimension that a window wraps, the residues
 * are taken modulo a divisor of its length ({@link Dim#period}), so that "a width apart" holds both ways round.
 */
public final class WindowPattern {

    /**
     * One dimension of an input's window: the whole dimension ({@code outDim == WHOLE}), a fixed interval
     * ({@code stride == 0}), or one that moves by {@code stride} per step of output dimension {@code outDim}; that
     * one either clipped to the array ({@code wrap == 0}) or wrapping around a dimension of length {@code wrap}
     * (circular padding: the window of the first output reads the input's last elements too).
     */
    public record Dim(int outDim, int stride, int offset, int width, int wrap) {
        static final int WHOLE = -1;

        public Dim(int outDim, int stride, int offset, int width) {
            this(outDim, stride, offset, width, 0);
        }

        public static Dim whole() {
            return new Dim(WHOLE, 0, 0, 0);
        }

        /** This window wrapping around its dimension, of length n. */
        public Dim wrapping(int n) {
            return new Dim(outDim, stride, offset, width, n);
        }

        boolean isWhole() {
            return outDim == WHOLE;
        }

        boolean wraps() {
            return wrap > 0;
        }

        /** The window's lower end for output index o, before clipping. */
        int lo(int[] o) {
            return stride == 0 ? offset : stride * o[outDim] + offset;
        }

        /**
         * The modulus of the residues that colour rows and columns: the width, or for a window that wraps the
         * smallest divisor of its dimension's length at least as large, so that elements of one residue lie at
         * least a width apart both ways round (32 elements under 3-wide windows: 4).
         */
        int period() {
            if (!wraps()) {
                return width;
            }
            int m = Math.min(width, wrap);
            while (wrap % m != 0) {
                m++;
            }
            return m;
        }

        /**
         * A key that is equal for two windows exactly when they hold the same elements: the lower end, modulo the
         * dimension where it wraps.
         */
        int key(int lo) {
            return wraps() ? Math.floorMod(lo, wrap) : lo;
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

    /**
     * @throws IllegalArgumentException where a window wraps around a dimension of another length than its stride
     *         times its output dimension's, or shares its output dimension with another moving window of its input
     *         (the rows reaching a column would not be one interval round the output)
     */
    public WindowPattern(long[] outShape, List<Input> inputs) {
        this.outShape = outShape;
        this.inputs = List.copyOf(inputs);
        inputs.forEach(this::checkWraps);
    }

    private void checkWraps(Input x) {
        for (int k = 0; k < x.dims().length; k++) {
            Dim d = x.dims()[k];
            if (d.wraps() && (d.stride() == 0 || (long) Math.abs(d.stride()) * outShape[d.outDim()] != d.wrap()
                    || d.wrap() != x.shape()[k] || !movesAlone(x, k))) {
                throw new IllegalArgumentException(x.name() + ": a window wrapping round dimension " + k
                        + " must step once round it over output dimension " + d.outDim() + ", the only window"
                        + " moving along it");
            }
        }
    }

    /** Whether input x's dimension k is the only one of x whose window moves along its output dimension. */
    static boolean movesAlone(Input x, int k) {
        for (int j = 0; j < x.dims().length; j++) {
            Dim d = x.dims()[j];
            if (j != k && !d.isWhole() && d.stride() != 0 && d.outDim() == x.dims()[k].outDim()) {
                return false;
            }
        }
        return true;
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

    /**
     * Row p's window in input x, a box: per dimension [lo, hi], lo first; hi < lo when empty. A window that wraps
     * round its dimension of length n past an end has lo < 0 ≤ hi: it holds 0 … hi and n + lo … n − 1 (any other
     * window's lo is at least 0).
     */
    public int[][] window(int p, Input x) {
        int[] o = unravel(p, outShape);
        int[][] box = new int[x.dims().length][];
        for (int k = 0; k < box.length; k++) {
            Dim d = x.dims()[k];
            int last = (int) x.shape()[k] - 1;
            box[k] = d.isWhole() ? new int[] {0, last}
                    : d.wraps() ? round(d.lo(o), d.width(), last + 1)
                    : new int[] {Math.max(0, d.lo(o)), Math.min(last, d.lo(o) + d.width() - 1)};
        }
        return box;
    }

    /** The {@code width} elements from {@code lo} on round a dimension of length n, as a box's [lo, hi]. */
    static int[] round(long lo, long width, int n) {
        if (width >= n) {
            return new int[] {0, n - 1};
        }
        int start = (int) Math.floorMod(lo, (long) n);
        int end = (int) (start + width - 1);
        return end < n ? new int[] {start, end} : new int[] {start - n, end - n};
    }

    /** Whether coordinate a of a dimension of length n lies inside a box's [lo, hi] there. */
    static boolean inside(int[] b, long a, long n) {
        return b[0] < 0 ? a <= b[1] || a >= n + b[0] : a >= b[0] && a <= b[1];
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
        forEachRun(box, shape, (first, length) -> {
            for (int i = 0; i < length; i++) {
                flat.accept(first + i);
            }
        });
    }

    /**
     * Every flat index inside a box, ascending, written into {@code into} from its start (which must have room for
     * {@link #size} of them): for a loop over millions of entries that reads them from an array, with no call per
     * entry.
     *
     * @return how many were written
     */
    public static int flat(int[][] box, long[] shape, int[] into) {
        int[] count = {0};
        forEachRun(box, shape, (first, length) -> {
            for (int i = 0; i < length; i++) {
                into[count[0] + i] = first + i;
            }
            count[0] += length;
        });
        return count[0];
    }

    /** A run of consecutive flat indices: {@code first} to {@code first + length − 1}. */
    @FunctionalInterface
    public interface Run {
        void accept(int first, int length);
    }

    /**
     * Every run of consecutive flat indices inside a box, ascending: the box's last dimension at each position of the
     * others, as one run, or two where the box wraps round it (0 … hi, then n + lo … n − 1).
     */
    public static void forEachRun(int[][] box, long[] shape, Run run) {
        if (size(box) == 0) {
            return;
        }
        int rank = box.length;
        if (rank == 0) {
            run.accept(0, 1);
            return;
        }
        int[] first = new int[rank];
        int[] last = new int[rank];
        for (int k = 0; k < rank; k++) {
            boolean wrapped = box[k][0] < 0;
            first[k] = wrapped ? 0 : box[k][0];
            last[k] = wrapped ? (int) shape[k] - 1 : box[k][1];
        }
        int inner = rank - 1;
        int[] at = first.clone();
        do {
            long f = 0;
            for (int k = 0; k < inner; k++) {
                f = f * shape[k] + at[k];
            }
            innerRuns(box[inner], (int) shape[inner], (int) (f * shape[inner]), run);
        } while (next(box, shape, first, last, at, inner - 1));
    }

    /** The runs of one position of the outer dimensions, which begins at {@code start}: the interval's, or two. */
    private static void innerRuns(int[] interval, int n, int start, Run run) {
        if (interval[0] < 0) {
            run.accept(start, interval[1] + 1);
            run.accept(start + n + interval[0], -interval[0]);
        } else {
            run.accept(start + interval[0], interval[1] - interval[0] + 1);
        }
    }

    /** Steps {@code at}'s dimensions 0 … k to the box's next position, odometer-wise: false after its last. */
    private static boolean next(int[][] box, long[] shape, int[] first, int[] last, int[] at, int k) {
        while (k >= 0 && at[k] == last[k]) {
            at[k] = first[k];
            k--;
        }
        if (k < 0) {
            return false;
        }
        at[k] = box[k][0] < 0 && at[k] == box[k][1] ? (int) shape[k] + box[k][0] : at[k] + 1;
        return true;
    }

    /**
     * The position of the element at {@code at} (an index of an input of this shape, inside row p's window) among
     * the window's elements in ascending order, from that input's {@link #rowBoxes}, without building the window.
     */
    public static int rankInRow(int p, int[] box, long[] at, long[] shape) {
        int rank = at.length;
        long r = 0;
        for (int k = 0; k < rank; k++) {
            int lo = box[(p * rank + k) * 2];
            int hi = box[(p * rank + k) * 2 + 1];
            long inRow = lo >= 0 ? at[k] - lo : at[k] <= hi ? at[k] : hi + 1 + at[k] - (shape[k] + lo);
            r = r * (hi - lo + 1) + inRow;
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
            if (!inside(box[k], at[k], shape[k])) {
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
            if (d.wraps()) { // the output dimension's only moving window here (checkWraps): b is whole or empty
                int m = (int) outShape[d.outDim()];
                box[d.outDim()] = b[1] < b[0] ? b
                        : reach[1] < reach[0] ? new int[] {0, -1} : round(reach[0], (long) reach[1] - reach[0] + 1, m);
                continue;
            }
            b[0] = Math.max(b[0], reach[0]);
            b[1] = Math.min(b[1], reach[1]);
        }
        return box;
    }

    /**
     * The output indices o along d's output dimension whose window holds coordinate c: stride·o + offset ≤ c ≤
     * stride·o + offset + width − 1, that is stride·o in [c − offset − width + 1, c − offset]. Dividing by a negative
     * stride (a window running backwards) swaps the ends. Unclipped: for a window that wraps, o modulo the output
     * dimension's length (a step of o round it moves the window once round its dimension).
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
     * first fit over the rows in order, a row kept from the groups of rows with its window in some input; a class
     * of rows with two inputs' windows that first fit colours in more colours than the most rows sharing a window
     * coloured again in that many ({@link Colouring#tightened}).
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
                        residues.add(Math.floorMod(d.lo(o), d.period()));
                        fibre.add(d.key(d.lo(o)));
                    }
                }
                fibres.add(fibre);
            }
            classOf[p] = classes.computeIfAbsent(residues, r -> classes.size());
            int cls = classOf[p];
            keys[p] = fibres.stream().mapToInt(f -> keyIds.computeIfAbsent(List.of(cls, f), k -> keyIds.size()))
                    .distinct().toArray();
        }
        int[] degree = Colouring.degrees(keys, keyIds.size());
        return Colouring.byClassAndColour(Colouring.tightened(keys, degree, Colouring.firstFit(keys, degree),
                classOf), classOf);
    }

    /**
     * What a run over this pattern evaluates, in words: its groups of rows (a backward pass each) and each input's
     * groups of columns (a stencil each), with the windows guessed, e.g. "200,704 rows in 3,136 groups; columns of
     * x in 576 groups, of w in 576".
     */
    public String plan() {
        StringBuilder s = new StringBuilder(String.format(java.util.Locale.ROOT, "%,d rows in %,d groups; columns",
                rows(), rowGroups().length));
        for (Input x : inputs) {
            s.append(String.format(java.util.Locale.ROOT, "%s of %s in %,d groups", x == inputs.get(0) ? "" : ",",
                    x.name(), columnGroups(x).length));
        }
        s.append("; windows");
        for (Input x : inputs) {
            s.append(' ').append(x.name()).append(java.util.Arrays.toString(x.dims()));
        }
        return s.toString();
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
                key.add(d.isWhole() ? at[k] : Math.floorMod(at[k], (long) d.period()));
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
