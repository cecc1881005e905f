package dev.gradcheck.cli;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Files the build puts beside gradcheck's classes (the spec suite, the docs: see the pom's resources), listed from
 * wherever the classes are: target/classes, or the jar, of a source tree or of an unpacked archive alike.
 */
final class BundledFiles {

    private BundledFiles() {}

    /** The resource names under {@code root} (ending in '/'), sorted; none when the classes carry none. */
    static List<String> list(String root) {
        List<String> names = new ArrayList<>();
        try {
            Path code = Path.of(BundledFiles.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isDirectory(code)) {
                Path dir = code.resolve(root);
                if (Files.isDirectory(dir)) {
                    try (Stream<Path> walk = Files.walk(dir)) {
                        walk.filter(Files::isRegularFile).forEach(p -> names.add(root
                                + dir.relativize(p).toString().replace(p.getFileSystem().getSeparator(), "/")));
                    }
                }
            } else {
                try (JarFile jar = new JarFile(code.toFile())) {
                    for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                        JarEntry entry = e.nextElement();
                        if (entry.getName().startsWith(root) && !entry.isDirectory()) {
                            names.add(entry.getName());
                        }
                    }
                }
            }
        } catch (IOException | URISyntaxException | RuntimeException e) {
            return List.of(); // no code source to list (an unusual class loader): callers do without
        }
        names.sort(null);
        return names;
    }

    /** A resource's text, or null when it cannot be read. */
    static String read(String resource) {
        try (InputStream in = BundledFiles.class.getClassLoader().getResourceAsStream(resource)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        }
    }
}
