package dev.gradcheck.cli.options;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The root of the repository a run's spec files are in, as CI names files: {@code $GITHUB_WORKSPACE} when set (the
 * checkout GitHub's runner places annotations in), else the nearest directory at or above the working directory
 * holding {@code .git} (a directory, or a worktree's file). GitHub cannot place {@code file=cumulative.yaml} from a
 * run in {@code specs/reductions/}; it can place {@code specs/reductions/cumulative.yaml}.
 *
 * @param dir the root, absolute and normalized
 */
public record RepositoryRoot(Path dir) {

    public static final String GITHUB_WORKSPACE = "GITHUB_WORKSPACE";

    /** The workspace's repository root, if it has one. */
    public static Optional<RepositoryRoot> of(Workspace workspace) {
        String github = workspace.env().apply(GITHUB_WORKSPACE);
        if (github != null && !github.isBlank()) {
            return Optional.of(new RepositoryRoot(workspace.workingDirectory().resolve(github).normalize()));
        }
        for (Path d = workspace.workingDirectory(); d != null; d = d.getParent()) {
            if (Files.exists(d.resolve(".git"))) {
                return Optional.of(new RepositoryRoot(d));
            }
        }
        return Optional.empty();
    }

    /**
     * {@code file} (as a location names it: relative to the working directory, or absolute) relative to this root,
     * with '/' between names; null when it is outside the root.
     */
    public String relative(Path workingDirectory, String file) {
        Path absolute = workingDirectory.resolve(file).normalize();
        if (absolute.startsWith(dir)) {
            return slashes(dir.relativize(absolute));
        }
        try { // a root named through a symbolic link (/home/runner/work -> /__w in a container job)
            Path real = absolute.toRealPath();
            Path realDir = dir.toRealPath();
            return real.startsWith(realDir) ? slashes(realDir.relativize(real)) : null;
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    private static String slashes(Path p) {
        return p.toString().replace(p.getFileSystem().getSeparator(), "/");
    }
}
