package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.backend.CheckRequest;
import dev.gradcheck.backend.nd4j.InProcessBackend;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.SpecLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** One layer spec's text checked in this JVM, as the layer tests of this package run them. */
final class LayerChecks {

    private LayerChecks() {
    }

    /** The spec must be valid: a test of a check should not pass on a spec that was never run. */
    static CheckResult check(String yaml) {
        return check("layer.yaml", yaml);
    }

    /**
     * The spec written to {@code spec} first, so that a {@code network:} file beside it resolves as it would from
     * the command line.
     */
    static CheckResult checkFile(Path spec, String yaml) throws IOException {
        Files.writeString(spec, yaml);
        return check(spec.toString(), yaml);
    }

    private static CheckResult check(String file, String yaml) {
        return check(file, yaml, MemoryBudget.UNLIMITED);
    }

    /** Checked under {@code budget}, as --max-memory gives one. */
    static CheckResult check(String file, String yaml, MemoryBudget budget) {
        try (InProcessBackend backend = InProcessBackend.withPlugins(Engine.CPU, PluginSet.EMPTY, budget)) {
            var loaded = new SpecLoader().loadText(file, "layer", yaml).get(0);
            assertTrue(loaded.isValid(), () -> "spec invalid: " + loaded.errors());
            return backend.run(CheckRequest.of(loaded.spec()));
        }
    }
}
