package dev.gradcheck.spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Loads spec files: YAML documents to validated {@link OpSpec}s, every problem as {@code file:line:col: message}.
 * Never throws for bad input; a bad document becomes an entry with errors and the other documents still load.
 */
public final class SpecLoader {

    /** One entry per non-empty YAML document, in file order, plus one for a syntax error that stopped reading. */
    public List<LoadedSpec> load(Path file) {
        return loadFile(file).specs();
    }

    /**
     * A file's specs and the text they were read from (null when it could not be read): a check in a worker is sent
     * that text, never the file's name to read again, so a file edited mid-run is checked as the front end read it.
     */
    public record FileSpecs(String text, List<LoadedSpec> specs) {}

    public FileSpecs loadFile(Path file) {
        String fileName = file.toString();
        String stem = stem(file);
        String text;
        try {
            text = readUtf8(file);
        } catch (UnreadableFileException e) {
            return new FileSpecs(null, List.of(LoadedSpec.invalid(SourcePos.ofFile(fileName), stem,
                    List.of(new SpecError(SourcePos.ofFile(fileName), e.getMessage())))));
        }
        return new FileSpecs(text, loadText(fileName, stem, text));
    }

    /**
     * Loads specs from YAML text that did not come from a file (benchmarks, tests, the library API): positions
     * name {@code fileName}, and unnamed specs are named after {@code stem}.
     */
    public List<LoadedSpec> loadText(String fileName, String stem, String text) {
        if (text.length() > MAX_FILE_BYTES) {
            // a file this long is refused before it is read; text from elsewhere is held to the same limit
            return List.of(LoadedSpec.invalid(SourcePos.ofFile(fileName), stem, List.of(new SpecError(
                    SourcePos.ofFile(fileName), "longer than " + sizeLimit() + ", too large to be spec text; not read"))));
        }
        LongLines.Blanked blanked = LongLines.blank(text);
        YamlTreeReader.Result read = YamlTreeReader.read(fileName, blanked.text());
        List<YamlTreeReader.Document> documents = new ArrayList<>(
                read.documents().stream().filter(d -> !d.isEmpty()).toList());
        SourcePos failedStart = read.syntaxError() == null ? null
                : read.failedDocStart() != null ? read.failedDocStart() : read.syntaxError().pos();
        List<SpecError> unplaced = placeLongLines(fileName, blanked.lines(), documents, failedStart);
        boolean several = documents.size() + (read.syntaxError() != null || !unplaced.isEmpty() ? 1 : 0) > 1;

        List<LoadedSpec> loaded = new ArrayList<>();
        for (int k = 1; k <= documents.size(); k++) {
            String defaultName = several ? stem + "#" + k : stem;
            loaded.add(SpecValidator.validate(documents.get(k - 1), defaultName));
        }
        rejectDuplicateNames(loaded);
        if (read.syntaxError() != null || !unplaced.isEmpty()) {
            int k = documents.size() + 1;
            List<SpecError> errors = new ArrayList<>(unplaced);
            if (read.syntaxError() != null) {
                errors.add(read.syntaxError());
            }
            SourcePos pos = failedStart != null ? failedStart : errors.get(0).pos();
            loaded.add(LoadedSpec.invalid(pos, several ? stem + "#" + k : stem, errors));
        }
        return List.copyOf(loaded);
    }

    /**
     * Adds the error for each over-long line to the document it is in: the last one starting at or before it (the
     * first, for a line before any). A line in the document a syntax error stopped, or in a file without documents,
     * is returned, for that document's entry.
     */
    private static List<SpecError> placeLongLines(String fileName, List<Integer> lines,
                                                  List<YamlTreeReader.Document> documents, SourcePos failedStart) {
        List<SpecError> unplaced = new ArrayList<>();
        for (int line : lines) {
            SpecError error = LongLines.error(fileName, line);
            int at = -1;
            for (int k = 0; k < documents.size(); k++) {
                if (documents.get(k).root().pos().line() <= line || at < 0) {
                    at = k;
                }
            }
            if (at < 0 || failedStart != null && failedStart.line() <= line) {
                unplaced.add(error);
            } else {
                YamlTreeReader.Document d = documents.get(at);
                List<SpecError> errors = new ArrayList<>(d.errors());
                errors.add(error);
                documents.set(at, new YamlTreeReader.Document(d.root(), errors));
            }
        }
        return unplaced;
    }

    /**
     * Expands the paths given on a command line: a directory becomes every {@code *.yaml} / {@code *.yml} file
     * under it (recursively, sorted by path); a file is taken as given, whatever its extension. A file reached twice
     * is listed once, where first reached.
     *
     * @throws SpecPathException naming every path that does not exist or cannot be walked
     */
    public static List<Path> collect(List<Path> paths) throws SpecPathException {
        Set<Path> seen = new LinkedHashSet<>();
        List<Path> result = new ArrayList<>();
        List<SpecPathException.Problem> problems = new ArrayList<>();
        for (Path path : paths) {
            List<Path> found;
            if (Files.isDirectory(path)) {
                found = walk(path, problems);
            } else if (Files.exists(path)) {
                found = List.of(path);
            } else {
                problems.add(new SpecPathException.Problem(path, "no such file or directory"));
                continue;
            }
            for (Path p : found) {
                if (seen.add(p.toAbsolutePath().normalize())) {
                    result.add(p);
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new SpecPathException(problems);
        }
        return List.copyOf(result);
    }

    private static List<Path> walk(Path dir, List<SpecPathException.Problem> problems) {
        List<Path> found = new ArrayList<>();
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    // Not only regular files: a FIFO or device named *.yaml is refused by name when loaded, rather
                    // than silently left out. A link is followed when loaded; one to a directory is not a spec.
                    if (isSpecFile(file) && !Files.isDirectory(file)) {
                        found.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    // Say so instead of silently checking fewer specs than the user thinks.
                    problems.add(new SpecPathException.Problem(file, reason(e)));
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            problems.add(new SpecPathException.Problem(dir, reason(e)));
        }
        found.sort(null);
        return found;
    }

    private static boolean isSpecFile(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".yaml") || name.endsWith(".yml");
    }

    /** Later documents reusing a name would make reports (and --only) ambiguous. */
    private static void rejectDuplicateNames(List<LoadedSpec> loaded) {
        Map<String, SourcePos> first = new HashMap<>();
        for (int i = 0; i < loaded.size(); i++) {
            LoadedSpec spec = loaded.get(i);
            SourcePos earlier = first.putIfAbsent(spec.name(), spec.pos());
            if (earlier != null) {
                List<SpecError> errors = new ArrayList<>(spec.errors());
                errors.add(0, new SpecError(spec.pos(), "duplicate spec name '" + spec.name()
                        + "' (first at line " + earlier.line() + ")"));
                loaded.set(i, spec.withErrors(errors));
            }
        }
    }

    /** The file's text as {@link #load} reads it, or null when it cannot be read ({@link #load} says why). */
    static String textOf(Path file) {
        try {
            return readUtf8(file);
        } catch (UnreadableFileException e) {
            return null;
        }
    }

    /** File name without its last extension: {@code specs/softmax.yaml} is named {@code softmax}. */
    /** What an unnamed spec of {@code file} is named after: its file name less the extension. */
    public static String stem(Path file) {
        Path fileName = file.getFileName();
        String name = fileName == null ? file.toString() : fileName.toString();
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    /**
     * Larger than any spec anyone writes by hand (the shipped suite's largest file is a few KiB), small enough to read
     * whole; a bigger file is refused before it is read, not read until the heap runs out. It is SnakeYAML's own limit
     * on a document (3,145,728 code points, never more than the bytes that encode them), so no document of a file
     * under it is refused by the parser halfway through.
     */
    static final long MAX_FILE_BYTES = 3L << 20;

    /** "3 MiB (3,145,728 bytes)". */
    static String sizeLimit() {
        return (MAX_FILE_BYTES >> 20) + " MiB (" + String.format(Locale.ROOT, "%,d", MAX_FILE_BYTES) + " bytes)";
    }

    /**
     * Reads a spec file, refusing without opening it anything but a regular file: a FIFO would block the read
     * forever, a device such as /dev/zero never ends.
     */
    private static String readUtf8(Path file) throws UnreadableFileException {
        refuseUnlessRegular(file);
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) MAX_FILE_BYTES + 1); // bounded even if the file grew since it was looked at
        } catch (IOException | UncheckedIOException | SecurityException e) {
            throw new UnreadableFileException(reason(e));
        }
        if (bytes.length > MAX_FILE_BYTES) {
            throw new UnreadableFileException("larger than " + sizeLimit() + ", the limit for a spec file"
                    + " (docs/spec-format.md#limits); not read");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new UnreadableFileException("not valid UTF-8 text");
        }
        // A byte-order mark is legal UTF-8 but not YAML content when read from a String.
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    /** Looks at the file's type (following links) without opening it. */
    private static void refuseUnlessRegular(Path file) throws UnreadableFileException {
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException | SecurityException e) {
            throw new UnreadableFileException(reason(e));
        }
        String refusal = RegularFiles.refusal(file, attrs, "specs");
        if (refusal != null) {
            throw new UnreadableFileException(refusal);
        }
        if (attrs.size() > MAX_FILE_BYTES) {
            throw new UnreadableFileException(attrs.size() + " bytes, larger than " + sizeLimit() + ", the limit for a"
                    + " spec file (docs/spec-format.md#limits); not read");
        }
    }

    private static String reason(Exception e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return "cannot read: " + e.getMessage();
    }

    private static final class UnreadableFileException extends Exception {
        UnreadableFileException(String message) {
            super(message, null, false, false);
        }
    }
}
