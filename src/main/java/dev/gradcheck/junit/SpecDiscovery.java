package dev.gradcheck.junit;

import dev.gradcheck.run.SpecSelection;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecIds;
import dev.gradcheck.spec.SpecLoader;
import dev.gradcheck.spec.SpecPathException;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.ClasspathResourceSelector;
import org.junit.platform.engine.discovery.DirectorySelector;
import org.junit.platform.engine.discovery.FileSelector;
import org.junit.platform.engine.discovery.UniqueIdSelector;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;

/**
 * A discovery request's selectors as spec files: a classpath resource (a directory or a file on the test class
 * path, e.g. {@code specs} for src/test/resources/specs), a directory (every {@code *.yaml} and {@code *.yml} under
 * it) or a file; a unique id of a file or spec this engine made (an IDE running one test again). A selector that
 * finds nothing becomes a failing test saying so, so that a misspelt path cannot pass as an empty suite.
 */
final class SpecDiscovery {

    private final UniqueId engineId;
    private final SpecEngineDescriptor engine;
    private final SpecSelection selection;
    /** Each file once, in the order first selected, with the specs chosen in it by their id segments (null: all). */
    private final Map<Path, Set<UniqueId.Segment>> files = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();

    private SpecDiscovery(UniqueId engineId, EngineSettings settings) {
        this.engineId = engineId;
        this.engine = new SpecEngineDescriptor(engineId, settings);
        this.selection = settings.selection();
    }

    static EngineDescriptor discover(EngineDiscoveryRequest request, UniqueId engineId) {
        EngineSettings settings;
        try {
            settings = EngineSettings.from(request.getConfigurationParameters());
        } catch (EngineSettings.Invalid e) {
            // no spec runs under settings that cannot be read: the run is this one failing test
            SpecEngineDescriptor engine = new SpecEngineDescriptor(engineId, null);
            engine.addChild(new ProblemDescriptor(engineId.append(ProblemDescriptor.SEGMENT, "settings"),
                    e.getMessage()));
            return engine;
        }
        SpecDiscovery discovery = new SpecDiscovery(engineId, settings);
        request.getSelectorsByType(ClasspathResourceSelector.class)
                .forEach(s -> discovery.classpathResource(s.getClasspathResourceName()));
        request.getSelectorsByType(DirectorySelector.class).forEach(s -> discovery.path(s.getPath()));
        request.getSelectorsByType(FileSelector.class).forEach(s -> discovery.path(s.getPath()));
        request.getSelectorsByType(UniqueIdSelector.class).forEach(s -> discovery.uniqueId(s.getUniqueId()));
        return discovery.build();
    }

    private void classpathResource(String name) {
        String resource = name.startsWith("/") ? name.substring(1) : name;
        ClassLoader loader = Optional.ofNullable(Thread.currentThread().getContextClassLoader())
                .orElse(SpecDiscovery.class.getClassLoader());
        try {
            List<URL> found = Collections.list(loader.getResources(resource));
            if (found.isEmpty()) {
                problems.add("classpath resource " + name + ": not found on the test class path");
            }
            for (URL url : found) {
                if (url.getProtocol().equals("file")) {
                    classpathPath(Path.of(url.toURI()));
                } else {
                    problems.add("classpath resource " + name + ": " + url + " is not a file or directory (spec"
                            + " files are run from the file system, not from inside a jar)");
                }
            }
        } catch (IOException | URISyntaxException e) {
            problems.add("classpath resource " + name + ": " + e.getMessage());
        }
    }

    /**
     * A classpath resource's files, each named by its source when the build copied it unchanged from one (Maven's
     * target/test-classes from src/test/resources, Gradle's build/resources/test likewise): a failure's
     * {@code file:line:col} and an IDE's click then lead to the file the user edits, not the build's copy.
     */
    private void classpathPath(Path found) {
        try {
            for (Path file : SpecLoader.collect(List.of(found))) {
                Path copy = file.toAbsolutePath().normalize();
                files.put(SourceOfCopy.of(copy).orElse(copy), null);
            }
        } catch (SpecPathException e) {
            e.problems().forEach(p -> problems.add(p.toString()));
        }
    }

    private void path(Path given) {
        try {
            for (Path file : SpecLoader.collect(List.of(given))) {
                files.put(file.toAbsolutePath().normalize(), null);
            }
        } catch (SpecPathException e) {
            e.problems().forEach(p -> problems.add(p.toString()));
        }
    }

    /** A file or spec id of this engine's; ids of other engines are theirs. */
    private void uniqueId(UniqueId id) {
        if (!id.hasPrefix(engineId)) {
            return;
        }
        List<UniqueId.Segment> segments = id.getSegments();
        int at = engineId.getSegments().size();
        if (segments.size() <= at) {
            return; // the engine itself: nothing selected by it
        }
        Path file = Path.of(segments.get(at).getValue());
        if (segments.size() == at + 1) {
            files.put(file, null);
        } else if (!files.containsKey(file) || files.get(file) != null) {
            files.computeIfAbsent(file, f -> new HashSet<>()).add(segments.get(at + 1));
        }
    }

    private EngineDescriptor build() {
        SpecLoader loader = new SpecLoader();
        Path here = Path.of("").toAbsolutePath();
        SpecIds ids = new SpecIds(here, here);
        List<LoadedSpec> found = new ArrayList<>();
        files.forEach((file, chosen) -> found.addAll(addFile(loader, ids, file, chosen)));
        if (!found.isEmpty() && engine.getChildren().isEmpty() && problems.isEmpty() && !selection.takesAll()) {
            problems.add(SelectionHint.nothingSelected(selection, found, ids));
        }
        for (int i = 0; i < problems.size(); i++) {
            UniqueId id = engineId.append(ProblemDescriptor.SEGMENT, Integer.toString(i + 1));
            engine.addChild(new ProblemDescriptor(id, problems.get(i)));
        }
        return engine;
    }

    /** The file's specs that the settings select, as its container's tests; returns every spec it held. */
    private List<LoadedSpec> addFile(SpecLoader loader, SpecIds ids, Path file, Set<UniqueId.Segment> chosen) {
        SpecFileDescriptor container = new SpecFileDescriptor(engineId.append(SpecFileDescriptor.SEGMENT,
                file.toString()), file, shown(file).toString());
        List<LoadedSpec> specs = loader.load(shown(file));
        Set<String> named = new HashSet<>();
        for (LoadedSpec spec : specs) {
            UniqueId.Segment segment = SpecTestDescriptor.segment(spec, named.add(spec.name()));
            if ((chosen == null || chosen.contains(segment)) && selection.selects(spec, ids)) {
                container.addChild(new SpecTestDescriptor(container.getUniqueId().append(segment.getType(),
                        segment.getValue()), file, spec));
            }
        }
        if (!container.getChildren().isEmpty()) {
            engine.addChild(container);
        }
        return specs;
    }

    /**
     * The file as messages name it: relative to the working directory (the project's, under Maven and Gradle)
     * when it is inside it, so that {@code file:line:col} is short and a terminal or IDE can open it.
     */
    static Path shown(Path file) {
        Path here = Path.of("").toAbsolutePath();
        return file.startsWith(here) ? here.relativize(file) : file;
    }
}
