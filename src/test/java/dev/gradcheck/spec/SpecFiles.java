package dev.gradcheck.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** Writes inline YAML to a temp dir, loads it, and asserts on positions and messages. */
final class SpecFiles {

    private final Path dir;

    SpecFiles(Path dir) {
        this.dir = dir;
    }

    Path write(String fileName, String yaml) {
        Path file = dir.resolve(fileName);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, yaml, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    List<LoadedSpec> load(String fileName, String yaml) {
        return new SpecLoader().load(write(fileName, yaml));
    }

    /** The one document of a file that must be valid. */
    OpSpec loadValid(String fileName, String yaml) {
        List<LoadedSpec> loaded = load(fileName, yaml);
        assertEquals(1, loaded.size(), () -> "documents: " + loaded);
        LoadedSpec only = loaded.get(0);
        assertTrue(only.errors().isEmpty(), () -> "unexpected errors:\n" + render(only.errors()));
        assertNotNull(only.spec());
        return only.spec();
    }

    /** The errors of a file with one document that must be invalid. */
    List<SpecError> loadErrors(String fileName, String yaml) {
        List<LoadedSpec> loaded = load(fileName, yaml);
        assertEquals(1, loaded.size(), () -> "documents: " + loaded);
        assertNull(loaded.get(0).spec(), "expected the spec to be invalid");
        assertTrue(!loaded.get(0).errors().isEmpty());
        return loaded.get(0).errors();
    }

    /** Asserts an error at exactly {@code line:col} whose message contains {@code fragment}. */
    static SpecError assertError(List<SpecError> errors, int line, int col, String fragment) {
        for (SpecError e : errors) {
            if (e.pos().line() == line && e.pos().col() == col && e.message().contains(fragment)) {
                return e;
            }
        }
        return fail("no error at " + line + ":" + col + " containing \"" + fragment + "\"; got:\n" + render(errors));
    }

    static String render(List<SpecError> errors) {
        return errors.stream().map(SpecError::toString).collect(Collectors.joining("\n"));
    }
}
