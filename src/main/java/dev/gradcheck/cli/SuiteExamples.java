package dev.gradcheck.cli;

import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecLoader;
import java.util.List;
import java.util.Optional;

/**
 * gradcheck's own spec suite (specs/), carried in its jar under {@value #ROOT} by the build, as the examples
 * {@code new} starts from: a spec the suite checks in every build validates, attributes and all (conv2d's kernel
 * sizes, layer_norm's axes, pooling's windows), where ND4J's descriptors give neither ranks nor defaults.
 */
final class SuiteExamples {

    static final String ROOT = "dev/gradcheck/suite-specs/";

    private SuiteExamples() {}

    /**
     * The suite's first single-op spec of {@code op} that expects to pass and loads valid, else its first that loads
     * valid at all (a known ND4J bug, its {@code expect:} and {@code reason:} kept: they are news to whoever writes
     * a spec for that op), as its file's document text with where it came from; empty when the suite has none (or
     * the jar carries no suite).
     */
    static Optional<SuiteExample> forOp(String op) {
        SuiteExample expectingMore = null;
        for (String file : BundledFiles.list(ROOT)) {
            String text = BundledFiles.read(file);
            if (text == null || !java.util.regex.Pattern.compile("(?m)^op: *" + java.util.regex.Pattern.quote(op)
                    + " *$").matcher(text).find()) {
                continue;
            }
            for (String document : text.split("(?m)^---\\s*$")) {
                List<LoadedSpec> loaded = new SpecLoader().loadText(file, "example", document);
                if (loaded.size() != 1 || !ofOp(loaded.get(0), op)) {
                    continue;
                }
                SuiteExample example = new SuiteExample(file.substring(ROOT.length()), loaded.get(0).name(),
                        document.strip() + "\n");
                if (expectsPass(loaded.get(0))) {
                    return Optional.of(example);
                }
                expectingMore = expectingMore == null ? example : expectingMore;
            }
        }
        return Optional.ofNullable(expectingMore);
    }

    private static boolean ofOp(LoadedSpec spec, String op) {
        return spec.isValid() && spec.spec().graph() == null && spec.spec().op().value().equals(op);
    }

    private static boolean expectsPass(LoadedSpec spec) {
        return spec.spec().expect() == null || spec.spec().expect().kind() == dev.gradcheck.spec.Expectation.Kind.PASS;
    }
}
