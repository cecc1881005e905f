package dev.gradcheck.check;

import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.OpSpec;
import java.util.Locale;
import java.util.Map;

/**
 * The most memory one check may plan to use ({@code --max-memory}): a spec over it is refused as invalid, with
 * its position, before the arrays are allocated. Inputs are weighed before anything is allocated; the Jacobian
 * blocks (the dominant cost: output elements × input elements doubles, numerical and analytic) once the forward
 * pass has told the output sizes, which no spec states.
 */
public record MemoryBudget(long bytes) {

    /** Set on worker JVMs (and for the run on an in-process one) by {@code --max-memory}, in bytes. */
    public static final String PROPERTY = "gradcheck.max-memory";
    /** Without {@code --max-memory}: this share of the checking JVM's heap, leaving room for ND4J's own copies. */
    static final double DEFAULT_HEAP_SHARE = 0.5;

    /** The budget for a check starting now in this JVM. */
    public static MemoryBudget current() {
        String set = System.getProperty(PROPERTY);
        if (set != null) {
            return new MemoryBudget(Long.parseLong(set));
        }
        return new MemoryBudget((long) (Runtime.getRuntime().maxMemory() * DEFAULT_HEAP_SHARE));
    }

    /** Each input as given and as the float64 reference, plus a perturbed copy for finite differences. */
    void requireInputsFit(OpSpec spec) throws InvalidSpecException {
        long total = 0;
        for (InputSpec in : spec.inputs()) {
            total = saturatingAdd(total, saturatingMul(length(in), 3L * Double.BYTES));
        }
        require(spec, total, "its inputs");
    }

    /** Per checked input, a numerical and an analytic block of doubles for every selected output. */
    void requireJacobiansFit(OpSpec spec, Map<String, Long> outputLengths) throws InvalidSpecException {
        long total = 0;
        for (String in : spec.check()) {
            for (long m : outputLengths.values()) {
                total = saturatingAdd(total, saturatingMul(saturatingMul(m, length(spec.input(in))),
                        2L * Double.BYTES));
            }
        }
        require(spec, total, "its Jacobians (output elements x input elements, numerical and analytic)");
    }

    private void require(OpSpec spec, long needed, String what) throws InvalidSpecException {
        if (needed > bytes) {
            throw new InvalidSpecException(spec.pos(), "refused: " + what + " would need " + human(needed)
                    + ", over the memory limit of " + human(bytes) + " (--max-memory; a smaller shape or "
                    + "check: fewer inputs fits)");
        }
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
    private static long length(InputSpec in) {
        long n = 1;
        for (long d : in.shape()) {
            n = saturatingMul(n, d);
        }
        return n;
    }

    private static long saturatingMul(long a, long b) {
        return a != 0 && Math.abs(a) > Long.MAX_VALUE / Math.abs(b) ? Long.MAX_VALUE : a * b;
    }

    private static long saturatingAdd(long a, long b) {
        return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
    }
}
