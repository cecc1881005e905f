package dev.gradcheck.op;

import dev.gradcheck.spec.OpSpec;
import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A network spec's file: {@code network:} relative to the spec's own file, as the spec format says. */
final class NetworkFile {

    private NetworkFile() {
    }

    /** The file the spec names, wherever the run was started. */
    static Path of(OpSpec spec) {
        return Path.of(spec.pos().file()).toAbsolutePath().getParent().resolve(spec.network().value());
    }

    /** Said before DL4J or SameDiff read it: their own words for a missing file are the path alone. */
    static void requireRegularFile(Path file) throws FileNotFoundException {
        if (!Files.isRegularFile(file)) {
            throw new FileNotFoundException("no such file");
        }
    }
}
