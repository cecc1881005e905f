package dev.gradcheck.report;

import dev.gradcheck.result.GradientResult;
import dev.gradcheck.result.EntryRegion;
import dev.gradcheck.result.Mismatches;
import dev.gradcheck.result.WorstElement;
import java.util.List;

/** How the table names a gradient block and points at one of its Jacobian entries. */
final class GradientText {

    private GradientText() {}

    /**
     * {@code d<output>/d<input>}, e.g. {@code d0/dx}, prefixed by how it was compared when that is not the whole
     * block ({@code fast d0/dx}, {@code hvp x}); a sanity check by its name and the input at fault
     * ({@code determinism x}); {@code -} when there is no row (errored checks).
     */
    static String name(GradientResult g) {
        if (g == null) {
            return "-";
        }
        String kind = g.kind().reportName();
        return switch (g.kind()) {
            case JACOBIAN -> "d" + g.output() + "/d" + g.input();
            case FAST, JVP -> kind + " d" + g.output() + "/d" + g.input();
            case HVP -> kind + " " + g.input();
            default -> g.input().equals("*") ? kind : kind + " " + g.input();
        };
    }

    /** {@code out[1, 2] / x[0, 3]}: the output element, then the input element it was differentiated by. */
    static String location(GradientResult g, WorstElement w) {
        return element(outputLabel(g.output()), w.outputIndex()) + " / " + element(g.input(), w.inputIndex());
    }

    /**
     * Where a block's mismatches lie, in entry notation: {@code y[1-3, i] / b[i]}; null when none mismatch. The
     * same text a spec's {@code mask:} accepts for it (bar a tie over part of an axis, {@code i=1-3}).
     */
    static String region(GradientResult g) {
        Mismatches m = g.mismatches();
        return m == null ? null : region(g, m.region());
    }

    /** A region of the block's entries in entry notation, or null for none. */
    static String region(GradientResult g, EntryRegion r) {
        if (r == null) {
            return null;
        }
        return tokens(outputLabel(g.output()), r.output()) + " / " + tokens(g.input(), r.input());
    }

    private static String tokens(String name, List<String> axes) {
        return axes.isEmpty() ? name : name + "[" + String.join(", ", axes) + "]";
    }

    /**
     * A numbered output ("0") reads badly as {@code 0[1, 2]}, so it becomes {@code out}; a named graph output keeps
     * its name. The block's own label ({@code d1/dx}) still says which output it was.
     */
    static String outputLabel(String output) {
        return output == null || output.isEmpty() || output.chars().allMatch(Character::isDigit) ? "out" : output;
    }

    /** {@code x[0, 3]}, or the bare name for a scalar (empty index). */
    private static String element(String name, long[] index) {
        if (index == null || index.length == 0) {
            return name;
        }
        StringBuilder sb = new StringBuilder(name).append('[');
        for (int i = 0; i < index.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(index[i]);
        }
        return sb.append(']').toString();
    }
}
