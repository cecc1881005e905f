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

    /**
     * Lets ND4J's arrays go without a system call each. JavaCPP, under every ND4J array's shape and data buffers,
     * reads this process's resident size from /proc on every native allocation whenever a physical-memory limit is
     * set (by default twice the heap), to call the garbage collector before the limit; a check makes thousands of
     * small arrays, and that read was an eighth of a warm fast check's time (async-profiler, tanh 100). Without
     * the limit the arrays are freed as before, when the collector finds them, which the checks' own garbage makes
     * it do often: the spec suite's and a dense 64x64 matmul's peak resident size stayed the same. Only for
     * gradcheck's own JVMs; a user's {@code -Dorg.bytedeco.javacpp.maxPhysicalBytes} wins.
     */
    public static void nativeAllocations() {
        setUnlessGiven("org.bytedeco.javacpp.maxPhysicalBytes", "0");
    }

    private static void setUnlessGiven(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}
