package dev.gradcheck.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecCollectTest {

    @TempDir
    Path dir;

    SpecFiles files;

    @BeforeEach
    void setUp() {
        files = new SpecFiles(dir);
        files.write("specs/b.yaml", "");
        files.write("specs/a.yml", "");
        files.write("specs/nn/conv.yaml", "");
        files.write("specs/nn/UPPER.YAML", "");
        files.write("specs/notes.txt", "");
        files.write("specs/a.yaml.bak", "");
        files.write("extra.spec", "");
    }

    @Test
    void directoriesExpandRecursivelyToYamlFilesSortedByPath() throws SpecPathException {
        Path specs = dir.resolve("specs");
        assertEquals(List.of(specs.resolve("a.yml"), specs.resolve("b.yaml"), specs.resolve("nn/UPPER.YAML"),
                specs.resolve("nn/conv.yaml")), SpecLoader.collect(List.of(specs)));
    }

    @Test
    void explicitFilesAreTakenWhateverTheirExtensionAndInTheOrderGiven() throws SpecPathException {
        Path extra = dir.resolve("extra.spec");
        Path b = dir.resolve("specs/b.yaml");
        assertEquals(List.of(extra, b), SpecLoader.collect(List.of(extra, b)));
    }

    @Test
    void aFileReachedTwiceIsListedOnce() throws SpecPathException {
        Path b = dir.resolve("specs/b.yaml");
        List<Path> collected = SpecLoader.collect(List.of(b, dir.resolve("specs")));
        assertEquals(b, collected.get(0));
        assertEquals(4, collected.size());
    }

    @Test
    void missingPathsAreAllNamed() {
        Path gone = dir.resolve("gone.yaml");
        Path away = dir.resolve("away");
        SpecPathException e = assertThrows(SpecPathException.class,
                () -> SpecLoader.collect(List.of(gone, dir.resolve("specs"), away)));
        assertEquals(List.of(gone + ": no such file or directory", away + ": no such file or directory"),
                e.problems().stream().map(SpecPathException.Problem::toString).toList());
        assertEquals(gone + ": no such file or directory\n" + away + ": no such file or directory", e.getMessage());
    }

    @Test
    void stemDropsOnlyTheLastExtension() {
        assertEquals("softmax", SpecLoader.stem(Path.of("specs/softmax.yaml")));
        assertEquals("a.b", SpecLoader.stem(Path.of("a.b.yml")));
        assertEquals("README", SpecLoader.stem(Path.of("README")));
        assertEquals(".hidden", SpecLoader.stem(Path.of(".hidden")));
    }
}
