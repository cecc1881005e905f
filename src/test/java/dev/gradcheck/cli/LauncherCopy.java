package dev.gradcheck.cli;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * bin/gradcheck in a home of its own, over this build's classes: its target/gradcheck.jar is a manifest-only jar
 * whose class path names this JVM's class path, so the launcher finds nothing to build and runs the code under
 * test, with its own redirections.
 */
public final class LauncherCopy {

    private LauncherCopy() {}

    /** @return the launcher to run */
    public static Path of(Path home) throws IOException {
        Path launcher = home.resolve("bin/gradcheck");
        Files.createDirectories(launcher.getParent());
        Files.createDirectories(home.resolve("target/lib"));
        Files.copy(Path.of("bin/gradcheck"), launcher);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.put(Attributes.Name.MAIN_CLASS, Main.class.getName());
        List<String> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            urls.add(Path.of(entry).toAbsolutePath().toUri().toString()); // directories end in '/'
        }
        main.put(Attributes.Name.CLASS_PATH, String.join(" ", urls));
        try (OutputStream out = Files.newOutputStream(home.resolve("target/gradcheck.jar"));
             JarOutputStream jar = new JarOutputStream(out, manifest)) {
            jar.flush();
        }
        return launcher;
    }
}
