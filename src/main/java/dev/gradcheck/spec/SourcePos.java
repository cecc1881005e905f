package dev.gradcheck.spec;

/** A place in a spec file, 1-based line and column; printed as {@code file:line:col}. */
public record SourcePos(String file, int line, int col) {

    public static SourcePos ofFile(String file) {
        return new SourcePos(file, 1, 1);
    }

    @Override
    public String toString() {
        return Printable.of(file) + ":" + line + ":" + col; // a file name may hold a newline
    }
}
