package dev.gradcheck.cli.options;

import dev.gradcheck.spec.ProjectFile;
import dev.gradcheck.spec.SpecIds;
import java.nio.file.Path;
import java.util.List;

/**
 * The project a command runs in: its root (the directory of gradcheck.yaml, else the working directory), and the
 * project file's paths and plugins when there is one.
 *
 * @param workspace where the command runs
 * @param file      the project file read, or null when there is none
 */
public record Project(Workspace workspace, ProjectFile file) {

    Path root() {
        return file == null ? workspace.workingDirectory() : file.root();
    }

    /** Ids of specs whose locations are as this process read them (relative to its working directory). */
    public SpecIds ids() {
        return new SpecIds(root(), Path.of(""));
    }

    /** What {@code check} and {@code validate} read when the command line names no path. */
    public List<Path> paths() {
        return file == null ? List.of() : file.paths();
    }

    public List<Path> plugins() {
        return file == null ? List.of() : file.plugins();
    }

    /** A path given relative to the project root. */
    Path resolve(Path path) {
        return root().resolve(path);
    }
}
