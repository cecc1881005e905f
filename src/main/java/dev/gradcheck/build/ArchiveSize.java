package dev.gradcheck.build;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the size of the start-up archive the build has just recorded beside it ({@code ARCHIVE.size}), as
 * bin/gradcheck does for the archives it records itself. A JVM writes its archive as it exits, so the training run
 * cannot: this runs after it ({@code pom.xml}). An archive cut short (a build stopped as the JVM wrote it, a full
 * disk) kills Java 17 with SIGBUS as it maps it, before any of gradcheck's code runs; bin/gradcheck compares the two
 * sizes and sets such an archive aside before any JVM maps it. No archive: a size left by an earlier build goes.
 */
public final class ArchiveSize {

    private ArchiveSize() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ArchiveSize ARCHIVE");
            System.exit(2);
        }
        Path archive = Path.of(args[0]);
        Path size = Path.of(args[0] + ".size");
        if (!Files.isRegularFile(archive)) {
            Files.deleteIfExists(size);
            return;
        }
        Files.writeString(size, Files.size(archive) + "\n");
    }
}
