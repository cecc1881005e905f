package dev.gradcheck.spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The one rule for files gradcheck reads whole (spec files, and the reports {@code merge} reads): only regular
 * files, judged from their attributes before they are opened. Opening a FIFO without a writer blocks forever, and
 * a device such as /dev/zero never ends, so they are refused by name, unopened.
 */
public final class RegularFiles {

    private RegularFiles() {}

    /**
     * Why {@code file} is not read, or null when it is a regular file.
     *
     * @param attrs  its attributes, read with links followed (what opening it would reach)
     * @param readAs what it would have been read as, plural ("specs", "reports"), for the message
     */
    public static String refusal(Path file, BasicFileAttributes attrs, String readAs) {
        if (attrs.isRegularFile()) {
            return null;
        }
        if (attrs.isDirectory()) {
            return "is a directory";
        }
        return "not a regular file (" + kind(file) + "); only regular files are read as " + readAs
                + ", this one was not read";
    }

    /** What a non-regular, non-directory file is, from its Unix mode where the platform tells it. */
    private static String kind(Path file) {
        try {
            int type = (Integer) Files.getAttribute(file, "unix:mode") & 0170000;
            return switch (type) {
                case 0010000 -> "a FIFO";
                case 0020000 -> "a character device";
                case 0060000 -> "a block device";
                case 0140000 -> "a socket";
                default -> "a special file";
            };
        } catch (IOException | RuntimeException e) {
            return "a special file";
        }
    }
}
