package dev.gradcheck.cli.shell;

import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.ProjectFile;
import dev.gradcheck.spec.SpecDocument;
import dev.gradcheck.spec.SpecLoader;
import dev.gradcheck.spec.SpecPathException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The spec names a line can mean, for completing {@code --only}, {@code --skip} and {@code --name}: those of the
 * spec files and directories named on the line, else of the project file's {@code paths:} (as the command would
 * check them). Read from the files alone, as {@code --collect-only} reads them: no spec is validated.
 */
final class SpecNames {

    private SpecNames() {}

    /** @param words the line's words, the command first */
    static List<String> on(List<String> words) {
        List<Path> paths = new ArrayList<>();
        for (String w : words.subList(Math.min(1, words.size()), words.size())) {
            Path p = existing(w);
            if (p != null) {
                paths.add(p);
            }
        }
        if (paths.isEmpty()) {
            paths.addAll(projectPaths());
        }
        Set<String> names = new LinkedHashSet<>();
        try {
            for (Path file : SpecLoader.collect(paths)) {
                SpecDocument.read(file).forEach(d -> names.add(d.name()));
            }
        } catch (SpecPathException e) {
            return List.copyOf(names); // a path that went away while typing: what was found
        }
        return List.copyOf(names);
    }

    private static Path existing(String word) {
        if (word.isEmpty() || word.startsWith("-")) {
            return null;
        }
        try {
            Path p = Path.of(word);
            return Files.exists(p) ? p : null;
        } catch (InvalidPathException e) {
            return null;
        }
    }

    private static List<Path> projectPaths() {
        return ProjectFile.find(Path.of("")).map(f -> {
            try {
                return ProjectFile.read(f, ProjectFile.NAME).paths();
            } catch (InvalidSpecException e) {
                return List.<Path>of(); // a broken project file is said when a command reads it, not on Tab
            }
        }).orElse(List.of());
    }
}
