package dev.gradcheck.junit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where a build tool copied a test resource from: {@code target/test-classes/X} (Maven) and
 * {@code build/resources/test/X} (Gradle) are copies of {@code src/test/resources/X}. Only a source whose bytes
 * are the copy's counts (a filtered resource is not the file the tests read).
 */
final class SourceOfCopy {

    /** Each build tool's output directory for test resources, and the source directory it copies. */
    private record Layout(Path output, Path source) {}

    private static final List<Layout> LAYOUTS = List.of(
            new Layout(Path.of("target", "test-classes"), Path.of("src", "test", "resources")),
            new Layout(Path.of("build", "resources", "test"), Path.of("src", "test", "resources")));

    private SourceOfCopy() {}

    /** The source of {@code copy} (an absolute, normalised path), when it has one with the same content. */
    static Optional<Path> of(Path copy) {
        for (Layout layout : LAYOUTS) {
            for (Path dir = copy.getParent(); dir != null; dir = dir.getParent()) {
                if (dir.endsWith(layout.output())) {
                    Path project = dir;
                    for (int i = 0; i < layout.output().getNameCount(); i++) {
                        project = project.getParent();
                    }
                    Path source = project.resolve(layout.source()).resolve(dir.relativize(copy));
                    if (sameContent(source, copy)) {
                        return Optional.of(source);
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static boolean sameContent(Path a, Path b) {
        try {
            return Files.isRegularFile(a) && Files.mismatch(a, b) == -1;
        } catch (IOException e) {
            return false;
        }
    }
}
