package dev.gradcheck.check;

import dev.gradcheck.result.Mode;
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
        require(spec, total, "its inputs", "a smaller shape or check: fewer inputs fits");
    }

    /**
     * What the spec's mode will hold: in full mode a numerical and an analytic block of doubles per (output, checked
     * input), each cut down by {@code max_elements} (the numerical block to the sampled columns, the analytic one to
     * the sampled rows); in fast mode only vectors. A fast check that fails is rechecked in full only when
     * {@link #fullRecheckFits} says so.
     */
    void requireJacobiansFit(OpSpec spec, Map<String, Long> outputLengths) throws InvalidSpecException {
        boolean fast = spec.mode() == Mode.FAST;
        require(spec, jacobianBytes(spec, outputLengths, fast), fast ? "its fast-mode vectors"
                : "its Jacobians (output elements x input elements, numerical and analytic"
                + (spec.options().maxElements() == null ? ")" : ", sampled)"),
                "mode: fast, max_elements: N, a smaller shape or check: fewer inputs fits");
    }

    /** Whether the full-mode blocks of a fast check's failing inputs would fit, for its recheck in full. */
    boolean fullRecheckFits(OpSpec spec, Map<String, Long> outputLengths) {
        return jacobianBytes(spec, outputLengths, false) <= bytes;
    }

    private static long jacobianBytes(OpSpec spec, Map<String, Long> outputLengths, boolean fast) {
        Integer sample = spec.options().maxElements();
        long total = 0;
        for (String in : spec.check()) {
            long n = length(spec.input(in));
            for (long m : outputLengths.values()) {
                long doubles;
                if (fast) {
                    doubles = saturatingMul(saturatingAdd(n, m), 2);
                } else if (sample == null) {
                    doubles = saturatingMul(saturatingMul(m, n), 2);
                } else {
                    doubles = saturatingAdd(saturatingMul(Math.min(sample, m), n), saturatingMul(m, Math.min(sample, n)));
                }
                total = saturatingAdd(total, saturatingMul(doubles, Double.BYTES));
            }
        }
        return total;
    }

    private void require(OpSpec spec, long needed, String what, String hint) throws InvalidSpecException {
        if (needed > bytes) {
            throw new InvalidSpecException(spec.pos(), "refused: " + what + " would need " + human(needed)
                    + ", over the memory limit of " + human(bytes) + " (--max-memory; " + hint + ")");
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
