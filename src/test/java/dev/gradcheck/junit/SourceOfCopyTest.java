package dev.gradcheck.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A test resource the build copied is named by its source only when the source holds the same bytes. */
class SourceOfCopyTest {

    @TempDir
    Path project;

    @Test
    void anUnchangedCopyLeadsToItsSource() throws Exception {
        Path copy = write("target/test-classes/specs/a.yaml", "name: a\n");
        Path source = write("src/test/resources/specs/a.yaml", "name: a\n");
        assertEquals(Optional.of(source), SourceOfCopy.of(copy));
        Path gradle = write("build/resources/test/specs/a.yaml", "name: a\n");
        assertEquals(Optional.of(source), SourceOfCopy.of(gradle));
    }

    @Test
    void aFilteredCopyOrOneWithoutSourceStaysItself() throws Exception {
        write("src/test/resources/specs/a.yaml", "name: ${name}\n");
        assertEquals(Optional.empty(), SourceOfCopy.of(write("target/test-classes/specs/a.yaml", "name: a\n")));
        assertEquals(Optional.empty(), SourceOfCopy.of(write("target/test-classes/specs/b.yaml", "name: b\n")));
        assertEquals(Optional.empty(), SourceOfCopy.of(write("elsewhere/specs/a.yaml", "name: ${name}\n")));
    }

    private Path write(String relative, String text) throws Exception {
        Path file = project.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }
}
