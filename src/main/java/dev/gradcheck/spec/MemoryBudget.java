package dev.gradcheck.spec;

import java.util.Locale;

/**
 * The most memory one check may plan to use ({@code --max-memory}): a spec over it is refused as invalid, with
 * its position, before the arrays are allocated. Inputs are weighed before anything is allocated
 * ({@link #requireInputsFit}); an op's outputs before the op runs ({@link #requireOutputsFit}: op/ asks ND4J's
 * shape functions, node by node for a graph); what a checking mode holds (its Jacobian blocks, the dominant cost)
 * once the forward pass has told the output sizes, which no spec states: each mode says how much that is (check/'s
 * {@code CheckMode.footprint}) and the budget only compares ({@link #require}). Plain data, in spec/ so that every
 * room that weighs a spec can hold one; passed in to the checker and the op builder (by the run's configuration,
 * through a worker's options to the worker), never read from global state. {@code check} and {@code validate}
 * weigh with the same one.
 */
public record MemoryBudget(long bytes) {

    /** No limit: for checks whose size was already weighed elsewhere. */
    public static final MemoryBudget UNLIMITED = new MemoryBudget(Long.MAX_VALUE);

    /** Without {@code --max-memory}: this share of the checking JVM's heap, leaving room for ND4J's own copies. */
    static final double DEFAULT_HEAP_SHARE = 0.5;
    /** Input values are drawn into one Java array per input, which holds at most this many elements. */
    static final long MAX_INPUT_ELEMENTS = Integer.MAX_VALUE - 8;

    /** The default for checks in this JVM: half its heap. */
    public static MemoryBudget forThisJvm() {
        return new MemoryBudget((long) (Runtime.getRuntime().maxMemory() * DEFAULT_HEAP_SHARE));
    }

    /** {@code --max-memory}'s bytes when given, else the default for checks in this JVM. */
    public static MemoryBudget orDefault(Long bytes) {
        return bytes != null ? new MemoryBudget(bytes) : forThisJvm();
    }

    /**
     * Each input as given and as the float64 reference, plus a perturbed copy for finite differences; and, under a
     * limit generous enough to let that pass, no input longer than one Java array.
     */
    public void requireInputsFit(OpSpec spec) throws InvalidSpecException {
        long total = 0;
        for (InputSpec in : spec.inputs()) {
            total = saturatingAdd(total, saturatingMul(length(in), 3L * Double.BYTES));
        }
        require(spec.pos(), total, "its inputs", "a smaller shape or check: fewer inputs fits");
        for (InputSpec in : spec.inputs()) {
            long n = length(in);
            if (n > MAX_INPUT_ELEMENTS) {
                throw new InvalidSpecException(in.pos(), "refused: input '" + in.name() + "' has " + n
                        + " elements, more than one input can hold (" + MAX_INPUT_ELEMENTS + ")");
            }
        }
    }

    /**
     * An op's outputs (one-op spec, or one node of a graph), weighed before the op runs, on top of what is held.
     *
     * @param held    bytes of the inputs (and for a graph node, the node outputs computed so far)
     * @param outputs bytes of the outputs, from their shapes and dtypes
     * @param pos     where a refusal points: the spec, or the node
     * @param what    what the refusal names ({@code node 2 (matmul, out=y): its output ...})
     */
    public void requireOutputsFit(long held, long outputs, SourcePos pos, String what) throws InvalidSpecException {
        require(pos, saturatingAdd(held, outputs), what, "smaller shapes fit");
    }

    /**
     * Refuses what needs more than the budget.
     *
     * @param what what would need the memory, as the refusal names it ("its inputs")
     * @param hint what would fit instead
     */
    public void require(SourcePos pos, long needed, String what, String hint) throws InvalidSpecException {
        if (!fits(needed)) {
            String[] sizes = distinct(needed, bytes);
            throw new InvalidSpecException(pos, "refused: " + what + " would need " + sizes[0]
                    + ", over the memory limit of " + sizes[1] + " (--max-memory; " + hint + ")");
        }
    }

    public boolean fits(long needed) {
        return needed <= bytes;
    }

    /**
     * Both sizes, readable and visibly different: one decimal where that tells them apart, then more, and exact
     * byte counts beside them when even three decimals round to the same figure (1048577 bytes over 1 MiB).
     */
    static String[] distinct(long needed, long limit) {
        for (int decimals = 1; decimals <= 3; decimals++) {
            String a = human(needed, decimals);
            String b = human(limit, decimals);
            if (!a.equals(b)) {
                return new String[] {a, b};
            }
        }
        return new String[] {human(needed, 1) + " (" + needed + " bytes)", human(limit, 1) + " (" + limit + " bytes)"};
    }

    public static String human(long bytes) {
        return human(bytes, 1);
    }

    /**
     * A budget of at least {@code bytes} as {@code --max-memory} takes it, rounded up to a tenth of its unit
     * ({@code 3.1g}), and the heap that holds it by the default rule (twice the budget), in whole units as
     * {@code -Xmx} takes it ({@code 7g}): for a refusal that says what would fit.
     */
    public static BudgetThatFits optionAndHeap(long bytes) {
        String[] units = {"", "k", "m", "g", "t", "p", "e"};
        Scaled s = Scaled.of(bytes);
        double tenths = Math.ceil(s.value() * 10) / 10;
        String option = (tenths == Math.rint(tenths) ? String.valueOf((long) tenths)
                : String.format(Locale.ROOT, "%.1f", tenths)) + units[s.unit()];
        return new BudgetThatFits(option, (long) Math.ceil(2 * s.value()) + units[s.unit()]);
    }

    /** What {@link #optionAndHeap} suggests: {@code --max-memory}'s value and {@code -Xmx}'s. */
    public record BudgetThatFits(String maxMemory, String heap) { }

    private static String human(long bytes, int decimals) {
        String[] units = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        Scaled s = Scaled.of(bytes);
        return s.unit() == 0 ? bytes + " bytes"
                : String.format(Locale.ROOT, "%." + decimals + "f %s", s.value(), units[s.unit()]);
    }

    /** Bytes in the largest binary unit (0: bytes, 1: Ki, ... 6: Ei) that leaves a value of at least 1. */
    private record Scaled(double value, int unit) {
        static Scaled of(long bytes) {
            double v = bytes;
            int u = 0;
            while (v >= 1024 && u < 6) {
                v /= 1024;
                u++;
            }
            return new Scaled(v, u);
        }
    }

    /** The element count, saturating: a spec may state a shape whose product overflows a long. */
    public static long length(InputSpec in) {
        return length(in.shape());
    }

    /** The element count of a shape, saturating at {@link Long#MAX_VALUE}; 0 when any dimension is 0. */
    public static long length(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n = saturatingMul(n, d);
        }
        return n;
    }

    /** a·b for non-negative a and b, or {@link Long#MAX_VALUE} when that overflows. */
    public static long saturatingMul(long a, long b) {
        if (a == 0 || b == 0) {
            return 0; // a zero dimension: an empty array, whatever the others say (and no division by it)
        }
        return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
    }

    /** a + b for non-negative a and b, or {@link Long#MAX_VALUE} when that overflows. */
    public static long saturatingAdd(long a, long b) {
        return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
    }
}
