package dev.gradcheck.result;

import java.util.List;

/**
 * Where some entries of a Jacobian block lie (the mismatching ones, say), one token per axis of the output element
 * and of the input element (together they index one Jacobian entry). A token is {@code ":"} (every index of that
 * axis occurs), an index or an inclusive range ({@code "2"}, {@code "1-3"}), a set of them ({@code "{0, 4-5}"}), a
 * count when they are scattered ({@code "(37 of 100)"}), or a lower-case letter that ties an output axis to an
 * input axis of the same length: every entry has equal indices there (the diagonal of an elementwise op is
 * {@code out[i, j] / x[i, j]}). A tie over part of an axis reads {@code "i=1-3"}. Reports render it as
 * {@code y[1-3, i] / b[i]}; spec masks accept the same notation (bar counts and partial ties).
 *
 * @param output one token per output axis
 * @param input  one token per input axis
 * @param exact  every judged entry inside the region is one of them, not only some: the region is the whole story
 */
public record EntryRegion(List<String> output, List<String> input, boolean exact) {

    public EntryRegion {
        output = List.copyOf(output);
        input = List.copyOf(input);
    }

    /** Whether no axis narrows the region: the entries are spread over the whole block. */
    public boolean wholeBlock() {
        return output.stream().allMatch(":"::equals) && input.stream().allMatch(":"::equals);
    }

    /**
     * Whether it is a diagonal: every output axis tied, in order, to every input axis over the whole axis
     * ({@code out[i, j] / x[i, j]}).
     */
    public boolean diagonal() {
        if (output.isEmpty() || !output.equals(input)) {
            return false;
        }
        return output.stream().allMatch(t -> t.length() == 1 && Character.isLetter(t.charAt(0)));
    }
}
