package dev.gradcheck.spec;

import java.nio.file.Path;

/**
 * A spec document's identity across machines and runs: the path of its file relative to the project root, with
 * '/' between segments, then {@code ::} and the spec's name ({@code specs/activations/softmax.yaml::softmax-rows}).
 * It does not depend on the working directory, on the order directories are listed in, or on which other specs
 * exist, so it is what shards are drawn by, what the cache of failures and durations is keyed by, and what a
 * JSON report's {@code id} holds. Names are unique within a file, so ids are unique within a project: in the file
 * part, {@code %} is written {@code %25} and {@code :} {@code %3A}, so the first {@code ::} always ends the file
 * (spec {@code a::b} of {@code x.yaml} and spec {@code b} of a file {@code x.yaml::a} were one id; now
 * {@code x.yaml::a::b} and {@code x.yaml%3A%3Aa::b}).
 */
public final class SpecIds {

    private final Path root;
    private final Path workingDirectory;

    /**
     * @param root             the project root (where gradcheck.yaml is, else the working directory)
     * @param workingDirectory what relative spec paths are relative to
     */
    public SpecIds(Path root, Path workingDirectory) {
        this.root = root.toAbsolutePath().normalize();
        this.workingDirectory = workingDirectory.toAbsolutePath().normalize();
    }

    public String of(LoadedSpec spec) {
        return of(spec.pos().file(), spec.name());
    }

    /** @param file the spec's file as its location names it (relative to the working directory, or absolute) */
    public String of(String file, String name) {
        return relativeFile(file).replace("%", "%25").replace(":", "%3A") + "::" + name;
    }

    /** The file's path relative to the root, '/'-separated; the path as given when it is not a path. */
    public String relativeFile(String file) {
        try {
            Path absolute = workingDirectory.resolve(file).normalize();
            String relative = root.relativize(absolute).toString();
            return relative.replace(absolute.getFileSystem().getSeparator(), "/");
        } catch (IllegalArgumentException e) { // InvalidPathException, or paths that do not relativize
            return file;
        }
    }

    /** The {@code file} of a location {@code file:line:col}. */
    public static String fileOf(String location) {
        int col = location.lastIndexOf(':');
        int line = col <= 0 ? -1 : location.lastIndexOf(':', col - 1);
        return line <= 0 ? location : location.substring(0, line);
    }
}
