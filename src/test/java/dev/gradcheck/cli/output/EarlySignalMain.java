package dev.gradcheck.cli.output;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The start of {@code Main.main} held open: {@code MARKER ARGS...} removes the stale report and watches for an early
 * signal as main does, writes MARKER, then waits as the JVM does while picocli has not yet read ARGS.
 */
public final class EarlySignalMain {

    private EarlySignalMain() {}

    public static void main(String[] args) throws Exception {
        String[] command = Arrays.copyOfRange(args, 1, args.length);
        StaleReport.removeEarly(command);
        EarlySignal.watch(command);
        Files.writeString(Path.of(args[0]), "watching");
        Thread.sleep(Long.MAX_VALUE);
    }
}
