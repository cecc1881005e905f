package dev.gradcheck;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * For tests that drive a program outside Java (tmux, util-linux's script, Chromium, NumPy): where it is missing the
 * test is skipped with the reason, and the reason is printed on stderr, because surefire's console shows only a
 * count of skipped tests (the assumption's message reaches the XML report alone). Under CI ({@code CI=true}, as CI
 * services set it and .ci/run, which installs the programs, does) a missing program fails the test instead: nothing
 * may be skipped there unnoticed.
 */
public final class ExternalTool {

    private ExternalTool() {}

    /**
     * Lets the calling test go on when {@code present}; else skips it (fails it under CI).
     *
     * @param reason what is missing and how to install it, e.g. "tmux is not installed (apt-get install -y tmux)"
     */
    public static void needed(boolean present, String reason) {
        if (present) {
            return;
        }
        String caller = StackWalker.getInstance().walk(frames -> frames.skip(1).findFirst())
                .map(f -> f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "." + f.getMethodName())
                .orElse("a test");
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            Assertions.fail(reason + "; under CI (CI=true) every tool must be there (.ci/run installs them)");
        }
        System.err.println("[SKIPPED] " + caller + ": " + reason);
        Assumptions.abort(reason);
    }
}
