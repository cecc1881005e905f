package dev.gradcheck.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * The machine's name for reports (JUnit's {@code hostname}, JSON's {@code run.hostname}). Read from the
 * environment or the kernel rather than through a reverse DNS lookup, which can hang for seconds on a CI runner
 * without DNS.
 */
final class HostName {

    private HostName() {}

    static String of(UnaryOperator<String> env) {
        for (String variable : new String[] {"HOSTNAME", "COMPUTERNAME"}) {
            String name = env.apply(variable);
            if (name != null && !name.isBlank()) {
                return name.strip();
            }
        }
        for (String file : new String[] {"/proc/sys/kernel/hostname", "/etc/hostname"}) {
            try {
                String name = Files.readString(Path.of(file)).strip();
                if (!name.isEmpty()) {
                    return name;
                }
            } catch (IOException | RuntimeException e) {
                // not Linux, or not readable: try the next
            }
        }
        return "localhost";
    }
}
