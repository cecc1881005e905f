package dev.gradcheck.spec;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Paths given on the command line that cannot be collected (missing, unreadable directory). Carries all of them,
 * so the CLI can print each as {@code path: no such file or directory} in one go.
 */
public class SpecPathException extends Exception {

    /** One bad path; prints as {@code path: reason}. */
    public record Problem(Path path, String reason) {
        @Override
        public String toString() {
            return path + ": " + reason;
        }
    }

    private final List<Problem> problems;

    public SpecPathException(List<Problem> problems) {
        super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")));
        this.problems = List.copyOf(problems);
    }

    public List<Problem> problems() {
        return problems;
    }
}
