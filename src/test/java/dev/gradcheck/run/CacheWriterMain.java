package dev.gradcheck.run;

import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.SpecIds;
import java.nio.file.Path;
import java.util.List;

/**
 * A run's end as {@link RunCache} records it, many times over, in a JVM of its own: {@code CACHE_DIR PREFIX COUNT}
 * records COUNT runs, each of one failed spec {@code PREFIX-i}, so several of these at once race on one cache.
 */
public final class CacheWriterMain {

    private CacheWriterMain() {}

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        SpecIds ids = new SpecIds(dir, dir);
        for (int i = 0; i < Integer.parseInt(args[2]); i++) {
            RunListener recorder = new RunCache(dir, System.err::println).recorder(ids);
            recorder.checkFinished(0, new CheckResult(args[1] + "-" + i, "specs.yaml:1:1", "tanh", "cpu", "float64",
                    Status.FAILED, "pass", null, null, List.of(), null, 1e-6, 0.1, List.of(), null));
            recorder.runFinished(null);
        }
    }
}
