package dev.gradcheck.cli.output;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An earlier report at {@code check --output FILE}, removed as the JVM starts, before the command line is parsed:
 * a signal in the JVM's first half second (before picocli has run and the interruption hook can write a report)
 * then leaves no report rather than the stale one, which CI would publish as this run's (issue 27). Only a plain
 * regular file is removed here; a link, a device or a FIFO are left to {@link ReportWriter#prepare}, which handles
 * them once the arguments are parsed. The removed file's permissions are remembered for the new report, as
 * {@code prepare} remembers those of a file it removes itself.
 */
public final class StaleReport {

    /** The files removed early, by absolute path, with their permissions (null: not known). */
    private static final Map<Path, Set<PosixFilePermission>> REMOVED = new ConcurrentHashMap<>();
    private static final Set<String> NOT_A_RUN = Set.of("-h", "--help", "-V", "--version");

    private StaleReport() {}

    /** Removes the regular file {@code check}'s {@code --output} names, when the command line is a check. */
    public static void removeEarly(String[] args) {
        Path output = outputOf(args);
        if (output == null || !Files.isRegularFile(output, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Path target = output.toAbsolutePath().normalize();
        Set<PosixFilePermission> permissions = null;
        try {
            permissions = Files.getPosixFilePermissions(target);
        } catch (IOException | UnsupportedOperationException e) {
            // not a POSIX file system: the new report gets the usual permissions
        }
        try {
            Files.delete(target);
            REMOVED.put(target, permissions == null ? Set.of() : permissions);
        } catch (IOException e) {
            // left as it is: ReportWriter.prepare tries again once the arguments are parsed, and says why it cannot
        }
    }

    /**
     * The file {@code check --output} names, read as picocli will ({@code --output FILE}, {@code --output=FILE},
     * {@code -o FILE}, {@code -oFILE}, the last one given); null when the command is not {@code check}, has none,
     * or only asks for help or the version. Options end at {@code --}.
     */
    static Path outputOf(String[] args) {
        String output = valueOf(args, "--output", "-o");
        try {
            return output == null || output.isEmpty() ? null : Path.of(output);
        } catch (InvalidPathException e) {
            return null; // picocli will say so
        }
    }

    /**
     * The value of {@code check}'s option {@code longName} (or {@code shortName}, null for none) as picocli will
     * read it, the last one given; null when the command is not a run of {@code check} or has none.
     */
    static String valueOf(String[] args, String longName, String shortName) {
        if (args.length == 0 || !args[0].equals("check")) {
            return null;
        }
        String value = null;
        for (int i = 1; i < args.length && !args[i].equals("--"); i++) {
            String a = args[i];
            if (NOT_A_RUN.contains(a)) {
                return null;
            }
            if ((a.equals(longName) || a.equals(shortName)) && i + 1 < args.length) {
                value = args[++i];
            } else {
                String joined = joinedValue(a, longName, shortName);
                value = joined != null ? joined : value;
            }
        }
        return value;
    }

    /** The value given in the same argument ({@code --format=json}, {@code -fjson}), or null. */
    private static String joinedValue(String a, String longName, String shortName) {
        if (a.startsWith(longName + "=")) {
            return a.substring(longName.length() + 1);
        }
        if (shortName != null && a.startsWith(shortName) && a.length() > 2 && !a.startsWith("--")) {
            return a.substring(2);
        }
        return null;
    }

    /**
     * The permissions of the file removed early at {@code target} (empty when not known), or null when none was:
     * {@link ReportWriter} gives them to the report it writes there.
     */
    static Set<PosixFilePermission> removedAt(Path target) {
        return REMOVED.get(target.toAbsolutePath().normalize());
    }
}
