package dev.gradcheck.backend;

/** Settings every gradcheck JVM (front end and workers) makes before ND4J loads. */
public final class JvmSetup {

    private JvmSetup() {}

    /** ND4J logs through slf4j-simple (stderr): warnings only unless the user asked for more. */
    public static void quietLogging() {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        // "ERROR NativeOpExecutioner - ..." rather than "[main] ERROR org.nd4j.linalg.cpu.nativecpu.ops.NativeOpExecutioner
        // - ...": these lines end up in reports (a check's log), where the thread and the package are noise
        setUnlessGiven("org.slf4j.simpleLogger.showThreadName", "false");
        setUnlessGiven("org.slf4j.simpleLogger.showShortLogName", "true");
        // ND4J warns about its own duplicate TF import mappings on every start: noise to a gradcheck user.
        System.setProperty("org.slf4j.simpleLogger.log.org.nd4j.imports.converters.ImportClassMapping", "error");
    }

    private static void setUnlessGiven(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}
