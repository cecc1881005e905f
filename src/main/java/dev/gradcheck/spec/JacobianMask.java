package dev.gradcheck.spec;

import java.util.Arrays;
import java.util.List;

/**
 * A spec's {@code mask:}: Jacobian entries left out of judging, as ND4J's gradCheckMask leaves out input elements
 * whose gradient is undefined. Each rule names entries in the notation reports use for them:
 * <ul>
 *   <li>{@code x[0, 1]}: an input element, every entry d out / d x[0, 1] of every output (a Jacobian column);</li>
 *   <li>{@code out[3]}: an output element, every entry d out[3] / d in (a row); a one-op spec's numbered outputs are
 *       {@code out} (all of them) or their number ({@code 1[3]}), named outputs go by name;</li>
 *   <li>{@code out[i, j] / x[i, j]}: entries, output element then input element; a letter ties an output axis to
 *       an input axis (here the diagonal).</li>
 * </ul>
 * Per axis: an index, an inclusive range {@code 1-3}, a set {@code {0, 2, 5-6}}, {@code :} for every index, or a
 * letter. A name alone stands for a scalar's one element.
 */
public record JacobianMask(List<Rule> rules) {

    public static final JacobianMask NONE = new JacobianMask(List.of());

    public JacobianMask {
        rules = List.copyOf(rules);
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** The name a report and a mask give every numbered output of a one-op spec. */
    public static final String NUMBERED_OUTPUTS = "out";

    /** Whether a mask's output name refers to the output of that name (a number, a graph's or plugin's name). */
    public static boolean namesOutput(String written, String output) {
        return written.equals(output)
                || written.equals(NUMBERED_OUTPUTS) && !output.isEmpty() && output.chars().allMatch(Character::isDigit);
    }

    /**
     * One entry of {@code mask:}.
     *
     * @param output the output side, or null when the rule names input elements only (whole columns)
     * @param input  the input side, or null when the rule names output elements only (whole rows)
     */
    public record Rule(SourcePos pos, String text, Side output, Side input) {

        /** Whether the rule speaks of this block at all. */
        public boolean concerns(String outputName, String inputName) {
            return (output == null || namesOutput(output.name(), outputName))
                    && (input == null || input.name().equals(inputName));
        }

        /** Whether entry d out[o] / d in[i] of a block it {@link #concerns} is left out. */
        public boolean covers(long[] o, long[] i) {
            if (output != null && !output.fits(o)) {
                return false;
            }
            if (input != null && !input.fits(i)) {
                return false;
            }
            if (output == null || input == null) {
                return true;
            }
            for (int p = 0; p < output.axes().size(); p++) {
                if (output.axes().get(p) instanceof Axis.Tie tie) {
                    int q = input.tied(tie.letter());
                    if (q < 0 || p >= o.length || q >= i.length || o[p] != i[q]) {
                        return false;
                    }
                }
            }
            return true;
        }
    }

    /** One element (or a set of them) of one array: a name and one selector per axis. */
    public record Side(String name, List<Axis> axes) {

        public Side {
            axes = List.copyOf(axes);
        }

        boolean fits(long[] index) {
            if (index.length != axes.size()) {
                return false;
            }
            for (int a = 0; a < index.length; a++) {
                if (!axes.get(a).contains(index[a])) {
                    return false;
                }
            }
            return true;
        }

        /** The axis a letter ties, or -1. */
        int tied(char letter) {
            for (int a = 0; a < axes.size(); a++) {
                if (axes.get(a) instanceof Axis.Tie t && t.letter() == letter) {
                    return a;
                }
            }
            return -1;
        }
    }

    /** What one axis of a side selects. */
    public sealed interface Axis {

        boolean contains(long index);

        /** {@code :}: every index. */
        record All() implements Axis {
            @Override
            public boolean contains(long index) {
                return true;
            }
        }

        /** Indices, sorted and distinct (from a number, a range or a set). */
        record Indices(long[] values) implements Axis {
            @Override
            public boolean contains(long index) {
                return Arrays.binarySearch(values, index) >= 0;
            }

            public long max() {
                return values[values.length - 1];
            }
        }

        /** A letter: the same index as the axis of the other side that carries the same letter. */
        record Tie(char letter) implements Axis {
            @Override
            public boolean contains(long index) {
                return true;
            }
        }
    }
}
