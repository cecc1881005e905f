package dev.gradcheck.run;

import java.nio.file.FileSystems;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.regex.PatternSyntaxException;

/**
 * A glob as java.nio's PathMatcher reads it: {@code *} and {@code ?} within one path segment, {@code **} across
 * segments, {@code [abc]} / {@code [a-z]} / {@code [!a]} one character of a set, {@code {a,b}} either pattern.
 * {@code specs/conv/*} matches the files in specs/conv/ but not in its subdirectories; {@code specs/**} matches
 * everything under specs/.
 */
public final class Glob {

    private final String pattern;
    private final PathMatcher matcher;

    private Glob(String pattern, PathMatcher matcher) {
        this.pattern = pattern;
        this.matcher = matcher;
    }

    /**
     * @throws IllegalArgumentException for a pattern that does not parse, naming the problem and its 1-based column
     */
    public static Glob of(String pattern) {
        try {
            return new Glob(pattern, FileSystems.getDefault().getPathMatcher("glob:" + pattern));
        } catch (PatternSyntaxException e) {
            int column = e.getIndex() < 0 ? pattern.length() : e.getIndex() + 1;
            throw new IllegalArgumentException("'" + pattern + "' is not a valid glob: " + e.getDescription()
                    + " at column " + Math.min(column, pattern.length() + 1));
        }
    }

    /** Whether the whole of {@code text}, read as a '/'-separated path, matches. */
    public boolean matches(String text) {
        try {
            return matcher.matches(Path.of(text));
        } catch (InvalidPathException e) {
            return false; // a spec name no path can spell matches no glob
        }
    }

    @Override
    public String toString() {
        return pattern;
    }
}
