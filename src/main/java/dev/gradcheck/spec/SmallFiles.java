package dev.gradcheck.spec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads the small files gradcheck keeps beside the specs (the project file, the cache, a durations file) under
 * {@link RegularFiles}' rule: a FIFO or a device is refused by name, unopened (a FIFO without a writer would block
 * the read, and with it the run and its shutdown, forever; /dev/zero never ends), and a file over a cap is refused
 * before it is read, not read until the heap runs out.
 */
public final class SmallFiles {

    private SmallFiles() {}

    /**
     * The file's bytes.
     *
     * @param readAs   what it would have been read as, plural ("project files"), for the message
     * @param maxBytes the most it may hold
     * @throws IOException why it was not read, in a message that does not repeat the file's name
     */
    public static byte[] read(Path file, String readAs, long maxBytes) throws IOException {
        BasicFileAttributes attrs = Files.readAttributes(file, BasicFileAttributes.class); // follows links, opens nothing
        String refusal = RegularFiles.refusal(file, attrs, readAs);
        if (refusal != null) {
            throw new IOException(refusal);
        }
        if (attrs.size() > maxBytes) {
            throw new IOException(tooLarge(attrs.size(), maxBytes));
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) maxBytes + 1); // bounded even if the file grew since it was looked at
        }
        if (bytes.length > maxBytes) {
            throw new IOException(tooLarge(bytes.length, maxBytes));
        }
        return bytes;
    }

    private static String tooLarge(long size, long maxBytes) {
        return "larger than " + (maxBytes >> 10) + " KiB (" + size + " bytes); not read";
    }
}
