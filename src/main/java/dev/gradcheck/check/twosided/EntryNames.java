package dev.gradcheck.check.twosided;

/** How the screen's messages name an entry and its parts: d{out}[row]/d{in}[col], flat positions. */
final class EntryNames {

    private EntryNames() {}

    /** Entry (row, col) of the block of output {@code out} by input {@code in}. */
    static String entry(String out, int row, String in, int col) {
        return row(out, row) + "/d" + element(in, col);
    }

    /** Row {@code row} of output {@code out}'s derivative. */
    static String row(String out, int row) {
        return "d" + element(out, row);
    }

    /** Element {@code at} of a named array, flat. */
    static String element(String name, int at) {
        return name + "[" + at + "]";
    }
}
