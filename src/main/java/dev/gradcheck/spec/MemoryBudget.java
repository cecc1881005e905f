package dev.gradcheck.spec;

import java.util.Locale;

/**
 * The most memory one check may plan to use ({@code --max-memory}): a spec over it is refused as invalid, with
 * its position, before the arrays are allocated. Inputs are weighed before anything is allocated
 * ({@link #requireInputsFit}); what a checking mode holds (its Jacobian blocks, the dominant cost) once the forward
 * pass has told the output sizes, which no spec states: each mode says how much that is (check/'s
 * {@code CheckMode.footprint}) and the budget only compares ({@link #require}). Plain data, in spec/ so that every
 * room that weighs a spec can hold one; passed in to the checker (by the run's configuration, through a worker's
 * options to the worker), never read from global state.
 */
public record MemoryBudget(long bytes) {

    /** No limit: for checks whose size was already weighed elsewhere. */
    public static final MemoryBudget UNLIMITED = new MemoryBudget(Long.MAX_VALUE);

    /** Without {@code --max-memory}: this share of the checking JVM's heap, leaving room for ND4J's own copies. */
    static final double DEFAULT_HEAP_SHARE = 0.5;

    /** The default for checks in this JVM: half its heap. */
    public static MemoryBudget forThisJvm() {
        return new MemoryBudget((long) (Runtime.getRuntime().maxMemory() * DEFAULT_HEAP_SHARE));
    }

    /** {@code --max-memory}'s bytes when given, else the default for checks in this JVM. */
    public static MemoryBudget orDefault(Long bytes) {
        return bytes != null ? new MemoryBudget(bytes) : forThisJvm();
    }

    /** Each input as given and as the float64 reference, plus a perturbed copy for finite differences. */
    public void requireInputsFit(OpSpec spec) throws InvalidSpecException {
        long total = 0;
        for (InputSpec in : spec.inputs()) {
            total = saturatingAdd(total, saturatingMul(length(in), 3L * Double.BYTES));
        }
        require(spec.pos(), total, "its inputs", "a smaller shape or check: fewer inputs fits");
    }

    /**
     * Refuses what needs more than the budget.
     *
     * @param what what would need the memory, as the refusal names it ("its inputs")
     * @param hint what would fit instead
     */
    public void require(SourcePos pos, long needed, String what, String hint) throws InvalidSpecException {
        if (!fits(needed)) {
            throw new InvalidSpecException(pos, "refused: " + what + " would need " + human(needed)
                    + ", over the memory limit of " + human(bytes) + " (--max-memory; " + hint + ")");
        }
    }

    public boolean fits(long needed) {
        return needed <= bytes;
    }

    static String human(long bytes) {
        String[] units = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? bytes + " bytes" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** The element count, saturating: a spec may state a shape whose product overflows a long. */
    public static long length(InputSpec in) {
        long n = 1;
        for (long d : in.shape()) {
            n = saturatingMul(n, d);
        }
        return n;
    }

    public static long saturatingMul(long a, long b) {
        return a != 0 && Math.abs(a) > Long.MAX_VALUE / Math.abs(b) ? Long.MAX_VALUE : a * b;
    }

    public static long saturatingAdd(long a, long b) {
        return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
    }
}
