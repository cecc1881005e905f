package dev.gradcheck.cli.options;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/**
 * What Maven wrote into version.properties at build time: gradcheck's version, the ND4J it was built with, and the
 * native platform its ND4J libraries are for (the build's javacpp.platform), which an installed archive is tied to.
 */
public final class VersionProvider implements CommandLine.IVersionProvider {

    private static final Properties BUILD = read();

    public static String version() {
        return BUILD.getProperty("version", "unknown");
    }

    /** The ND4J version the build resolved. */
    public static String nd4jVersion() {
        return BUILD.getProperty("nd4j", "unknown");
    }

    /** The javacpp platform of the native libraries built in (linux-x86_64, macosx-arm64, ...). */
    public static String nativePlatform() {
        return BUILD.getProperty("platform", "unknown");
    }

    private static Properties read() {
        Properties p = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("/dev/gradcheck/version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // no build facts: each reads "unknown"
        }
        return p;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"gradcheck " + version() + " (ND4J " + nd4jVersion() + ", native platform "
                + nativePlatform() + ", Java " + Runtime.version() + ")"};
    }
}
