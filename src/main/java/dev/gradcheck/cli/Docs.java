package dev.gradcheck.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the documentation is, for help texts: {@code ${sys:gradcheck.docs}/checking.md}. The docs live in the source
 * tree beside the build ({@code target/gradcheck.jar} or {@code target/classes}), so help can name them by an
 * absolute path that works from any directory; a jar copied elsewhere (an unpacked archive) names them relatively,
 * and every help text that points to one also names {@code gradcheck docs TOPIC}, which prints it from the jar.
 */
final class Docs {

    static final String PROPERTY = "gradcheck.docs";

    private Docs() {}

    static void publish() {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, locate());
        }
    }

    static String locate() {
        try {
            Path code = Path.of(Docs.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path docs = code.getParent().getParent().resolve("docs");
            if (Files.isRegularFile(docs.resolve("spec-format.md"))) {
                return docs.toAbsolutePath().normalize().toString();
            }
        } catch (Exception e) {
            // no code source (an unusual class loader): fall through
        }
        return "docs"; // no source tree beside the jar: help names `gradcheck docs TOPIC` beside each path
    }
}
