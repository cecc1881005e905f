package dev.gradcheck;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * An example project under examples/ built by a child Maven against the classes this build just compiled, as a
 * user's project would build against a released gradcheck.
 *
 * <p>The classes go into a jar in a throwaway local repository, beside gradcheck's pom; everything else in that
 * repository is a link into the local repository of the build running the test, which already holds every
 * dependency and plugin the examples need (they pin gradcheck's own plugin versions, and gradcheck's pom depends on
 * what they use). So an example builds offline ({@code mvn -o}), leaves the user's ~/.m2 alone and never sees a
 * stale gradcheck jar.
 *
 * @param project the example's copy, where it was built (its target/ holds the reports)
 * @param log     the child Maven's output
 * @param exit    the child Maven's exit code
 */
public record ExampleBuild(Path project, Path log, int exit) {

    private static final List<String> GROUP = List.of("dev", "gradcheck");
    private static final String ARTIFACT = "gradcheck";

    /**
     * Copies {@code example} into {@code tmp} and runs {@code mvn -B -o} on it with {@code arguments} (goals and
     * options), gradcheck's version given as {@code -Dgradcheck.version}.
     */
    public static ExampleBuild run(Path example, Path tmp, String... arguments) throws Exception {
        String version = version();
        Path repo = tmp.resolve("repo");
        Path artifactDir = overlay(localRepository(), repo, version);
        jar(Path.of("target/classes"), artifactDir.resolve(ARTIFACT + "-" + version + ".jar"));
        Files.copy(Path.of("pom.xml"), artifactDir.resolve(ARTIFACT + "-" + version + ".pom"));
        Path project = tmp.resolve(example.getFileName().toString());
        copy(example, project);
        Path log = tmp.resolve("mvn.log");
        List<String> command = new ArrayList<>(List.of(maven(), "-B", "-o", "-Dstyle.color=never",
                "-Dmaven.repo.local=" + repo, "-Dgradcheck.version=" + version));
        command.addAll(List.of(arguments));
        Process mvn = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!mvn.waitFor(10, TimeUnit.MINUTES)) {
            mvn.destroyForcibly().waitFor();
        }
        return new ExampleBuild(project, log, mvn.exitValue());
    }

    /** The version Maven filtered into the compiled classes' version.properties. */
    public static String version() throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(Path.of("target/classes/dev/gradcheck/version.properties"))) {
            p.load(in);
        }
        return p.getProperty("version");
    }

    /** The local repository of the build running this test (surefire passes it), else Maven's default. */
    public static Path localRepository() {
        String configured = System.getProperty("examples.localRepository");
        return configured != null && !configured.isBlank() && !configured.contains("${") ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".m2", "repository");
    }

    /** Maven's launcher: the running build's (surefire passes maven.home), else mvn on the PATH. */
    public static String maven() {
        String home = System.getProperty("maven.home");
        if (home != null && !home.isBlank() && !home.contains("${")) {
            Path mvn = Path.of(home, "bin", "mvn");
            if (Files.isExecutable(mvn)) {
                return mvn.toString();
            }
        }
        return "mvn";
    }

    /** The last lines of the build's output, for a failing assertion's message. */
    public String tail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
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

    /** A jar of the files under {@code classes} (no manifest beyond the default). */
    public static void jar(Path classes, Path jar) throws IOException {
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
}
