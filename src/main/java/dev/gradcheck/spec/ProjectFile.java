package dev.gradcheck.spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A project's {@value #NAME}: default command-line options per command, the spec paths to check when none are
 * given, and plugin paths, as pytest.ini gives pytest. Found in the working directory or the nearest directory
 * above it that has one (that directory is the project root), or named with {@code --config}. Read here with
 * positions, so every problem is {@code file:line:col: message}; which options a section may set is the CLI's to
 * say.
 *
 * <pre>
 * paths: [specs/]                 # what `gradcheck check` and `validate` read when given no PATH
 * plugins: [build/my-ops.jar]     # loaded by every command, besides --plugin
 * check:                          # any of check's options, by long name
 *   jobs: 2
 *   skip: ['specs/slow/**']
 * </pre>
 *
 * @param file     the file read
 * @param root     the project root: the file's directory; relative paths in the file are relative to it
 * @param paths    {@code paths:}, resolved against the root; empty when not given
 * @param plugins  {@code plugins:}, resolved against the root
 * @param sections every other top-level key: a command's name and its settings, in file order
 */
public record ProjectFile(Path file, Path root, List<Path> paths, List<Path> plugins,
                          Map<String, Section> sections) {

    public static final String NAME = "gradcheck.yaml";

    /**
     * A project file is a few lines of settings; one larger than this is not one (--config /dev/zero, a log named
     * by mistake) and is refused before it is read, not read until the heap runs out.
     */
    static final long MAX_BYTES = 1L << 20;

    /** One command's settings, and where its key is. */
    public record Section(String command, SourcePos pos, List<Setting> settings) {}

    /**
     * One option's value as written: a scalar's text, or a list's items' texts.
     *
     * @param key    the option's name as written ({@code fail-fast}, {@code fail_fast})
     * @param pos    where the key is
     * @param values the value's text; for a list, each item's
     * @param valuePos where the value is
     */
    public record Setting(String key, SourcePos pos, List<String> values, boolean list, SourcePos valuePos) {}

    /** The nearest {@value #NAME} in {@code directory} or above it. */
    public static Optional<Path> find(Path directory) {
        for (Path dir = directory.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(NAME);
            // a FIFO or device by that name is found too, so that reading it refuses it by name rather than the
            // project's settings being silently left out
            if (Files.exists(candidate) && !Files.isDirectory(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * @param name what positions call the file ({@code gradcheck.yaml:3:9})
     * @throws InvalidSpecException with every problem found, each at its position
     */
    public static ProjectFile read(Path file, String name) throws InvalidSpecException {
        Path absolute = file.toAbsolutePath().normalize();
        String text;
        try {
            text = new String(SmallFiles.read(file, "project files", MAX_BYTES), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new InvalidSpecException(SourcePos.ofFile(name), "cannot read the project file: "
                    + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()));
        }
        Path root = absolute.getParent();
        YamlTreeReader.Result read = YamlTreeReader.read(name, text.startsWith("\uFEFF") ? text.substring(1) : text);
        Problems problems = new Problems();
        if (read.syntaxError() != null) {
            throw new InvalidSpecException(List.of(read.syntaxError()));
        }
        List<YamlTreeReader.Document> documents = read.documents().stream().filter(d -> !d.isEmpty()).toList();
        if (documents.isEmpty()) {
            return new ProjectFile(absolute, root, List.of(), List.of(), Map.of());
        }
        if (documents.size() > 1) {
            problems.add(documents.get(1).root().pos(), "a project file holds one document; remove the '---'");
        }
        YamlTreeReader.Document doc = documents.get(0);
        problems.addAll(doc.errors());
        ValueReader reader = new ValueReader(problems);
        List<Path> paths = new ArrayList<>();
        List<Path> plugins = new ArrayList<>();
        Map<String, Section> sections = new LinkedHashMap<>();
        reader.mapping(doc.root(), "the project file").ifPresent(m -> {
            for (YamlNode.Entry e : m.entries()) {
                switch (e.key()) {
                    case "paths" -> paths.addAll(pathList(reader, e.value(), "paths", root));
                    case "plugins" -> plugins.addAll(pathList(reader, e.value(), "plugins", root));
                    default -> reader.mapping(e.value(), e.key()).ifPresent(section ->
                            sections.put(e.key(), new Section(e.key(), e.keyPos(), settings(reader, section,
                                    e.key()))));
                }
            }
        });
        if (!problems.isEmpty()) {
            throw new InvalidSpecException(problems.sorted());
        }
        return new ProjectFile(absolute, root, List.copyOf(paths), List.copyOf(plugins), sections);
    }

    private static List<Path> pathList(ValueReader reader, YamlNode node, String key, Path root) {
        List<Path> paths = new ArrayList<>();
        List<YamlNode> items = node instanceof YamlNode.Sequence s ? s.items() : List.of(node);
        for (int i = 0; i < items.size(); i++) {
            reader.text(items.get(i), ValueReader.element(key, i)).ifPresent(p -> paths.add(root.resolve(p)));
        }
        return paths;
    }

    private static List<Setting> settings(ValueReader reader, YamlNode.Mapping section, String command) {
        List<Setting> settings = new ArrayList<>();
        for (YamlNode.Entry e : section.entries()) {
            String path = ValueReader.child(command, e.key());
            if (e.value() instanceof YamlNode.Sequence seq) {
                List<String> values = new ArrayList<>();
                for (int i = 0; i < seq.items().size(); i++) {
                    scalar(reader, seq.items().get(i), ValueReader.element(path, i)).ifPresent(values::add);
                }
                settings.add(new Setting(e.key(), e.keyPos(), List.copyOf(values), true, e.value().pos()));
            } else {
                scalar(reader, e.value(), path).ifPresent(v -> settings.add(new Setting(e.key(), e.keyPos(),
                        List.of(v), false, e.value().pos())));
            }
        }
        return List.copyOf(settings);
    }

    /** A value as the command line would spell it: the scalar's text ({@code 2}, {@code true}, {@code json}). */
    private static Optional<String> scalar(ValueReader reader, YamlNode node, String path) {
        if (node instanceof YamlNode.Scalar s && s.kind() != YamlNode.Scalar.Kind.NULL
                && s.kind() != YamlNode.Scalar.Kind.ALIAS) {
            return Optional.of(s.text());
        }
        reader.problems.typeMismatch(node, "a value or a list of values", path);
        return Optional.empty();
    }
}
