package dev.gradcheck.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * examples/library-test, a Maven project that uses gradcheck from its JUnit tests, builds and passes against the
 * classes this build just compiled. The example's tests check that the library brings no CLI dependency (no
 * slf4j binding, picocli, JLine or YAML reader) and keeps the test's stdout clean; here we make sure they ran.
 *
 * <p>The classes go into a jar in a throwaway local repository, beside gradcheck's pom; everything else in that
 * repository is a link into the local repository of the build running this test, which already holds every
 * dependency and plugin the example needs (it pins gradcheck's own plugin versions). So the example builds
 * offline ({@code mvn -o}), leaves the user's ~/.m2 alone and never sees a stale gradcheck jar.
 */
@Tag("slow") // a Maven build in a child process: ~20-40 s
class LibraryExampleTest {

    private static final List<String> GROUP = List.of("dev", "gradcheck");
    private static final String ARTIFACT = "gradcheck";

    @TempDir
    Path tmp;

    @Test
    void theLibraryExampleBuildsAndItsTestsPass() throws Exception {
        String version = version();
        Path repo = tmp.resolve("repo");
        Path artifactDir = overlay(localRepository(), repo, version);
        jar(Path.of("target/classes"), artifactDir.resolve(ARTIFACT + "-" + version + ".jar"));
        Files.copy(Path.of("pom.xml"), artifactDir.resolve(ARTIFACT + "-" + version + ".pom"));
        Path example = tmp.resolve("library-test");
        copy(Path.of("examples/library-test"), example);

        Path log = tmp.resolve("mvn.log");
        Process mvn = new ProcessBuilder(maven(), "-B", "-o", "-Dstyle.color=never", "-Dmaven.repo.local=" + repo,
                "-Dgradcheck.version=" + version, "test")
                .directory(example.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!mvn.waitFor(10, TimeUnit.MINUTES)) {
            mvn.destroyForcibly();
        }
        assertEquals(0, mvn.exitValue(), () -> "the example's build failed:\n" + tail(log));

        Path report = example.resolve("target/surefire-reports/TEST-com.example.softplus.SoftplusGradientTest.xml");
        assertTrue(Files.isRegularFile(report), () -> "no test report; the build said:\n" + tail(log));
        Element suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile())
                .getDocumentElement();
        assertEquals("5", suite.getAttribute("tests"), () -> tail(log));
        assertEquals("0", suite.getAttribute("failures"), () -> tail(log));
        assertEquals("0", suite.getAttribute("errors"), () -> tail(log));
        assertEquals("0", suite.getAttribute("skipped"), () -> tail(log));
    }

    /** The version Maven filtered into the compiled classes' version.properties. */
    private static String version() throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(Path.of("target/classes/dev/gradcheck/version.properties"))) {
            p.load(in);
        }
        return p.getProperty("version");
    }

    /** The local repository of the build running this test (surefire passes it), else Maven's default. */
    private static Path localRepository() {
        String configured = System.getProperty("gradcheck.localRepository");
        return configured != null && !configured.isBlank() && !configured.contains("${") ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".m2", "repository");
    }

    /** Maven's launcher: the running build's (surefire passes maven.home), else mvn on the PATH. */
    private static String maven() {
        String home = System.getProperty("maven.home");
        if (home != null && !home.isBlank() && !home.contains("${")) {
            Path mvn = Path.of(home, "bin", "mvn");
            if (Files.isExecutable(mvn)) {
                return mvn.toString();
            }
        }
        return "mvn";
    }

    /**
     * {@code repo} as {@code outer}, every entry a link, except the directories down to gradcheck's version
     * directory, which are real (so gradcheck's jar there is this build's); returns that version directory.
     */
    private static Path overlay(Path outer, Path repo, String version) throws IOException {
        Path real = repo;
        Path from = outer;
        List<String> path = Stream.concat(GROUP.stream(), Stream.of(ARTIFACT, version)).toList();
        for (String name : path) {
            Files.createDirectories(real);
            if (Files.isDirectory(from)) {
                try (Stream<Path> entries = Files.list(from)) {
                    for (Path e : (Iterable<Path>) entries::iterator) {
                        String entry = e.getFileName().toString();
                        if (!entry.equals(name) && !Files.exists(real.resolve(entry))) {
                            Files.createSymbolicLink(real.resolve(entry), e.toAbsolutePath());
                        }
                    }
                }
            }
            real = real.resolve(name);
            from = from.resolve(name);
        }
        Files.createDirectories(real);
        return real;
    }

    private static void jar(Path classes, Path jar) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.walk(classes)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path relative = from.relativize(f);
                if (relative.startsWith("target")) {
                    continue; // a developer's own build of the example
                }
                Path target = to.resolve(relative.toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
