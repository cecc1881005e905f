package dev.gradcheck.cli.options;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** The version Maven wrote into version.properties at build time. */
public final class VersionProvider implements CommandLine.IVersionProvider {

    public static String version() {
        try (InputStream in = VersionProvider.class.getResourceAsStream("/dev/gradcheck/version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {"gradcheck " + version() + " (ND4J 1.0.0-M2.1, Java " + Runtime.version() + ")"};
    }
}
