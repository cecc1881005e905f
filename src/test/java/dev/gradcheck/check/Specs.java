package dev.gradcheck.check;

import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Specs for tests, written as YAML exactly as a user would. */
final class Specs {

    private Specs() {}

    static OpSpec parse(String yaml) {
        try {
            Path file = Files.createTempFile("gradcheck-test-", ".yaml");
            try {
                Files.writeString(file, yaml);
                LoadedSpec loaded = new SpecLoader().load(file).get(0);
                if (!loaded.isValid()) {
                    throw new IllegalArgumentException("test spec is invalid: " + loaded.errors());
                }
                return loaded.spec();
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
