package dev.gradcheck.backend;

import dev.gradcheck.check.FunctionFactory;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.OpCatalog;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.OpSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A worker with test-only operators that misbehave the ways real ones do, and otherwise ND4J's ops:
 * {@code test-exit} calls System.exit({@code code}) as a careless plugin might; {@code test-sleep} hangs for
 * {@code seconds} (first creating the file {@code marker}, when given, so a test knows it is running).
 */
public final class TestWorkerMain {

    private TestWorkerMain() {}

    public static void main(String[] args) throws IOException {
        FunctionFactory nd4j = new Nd4jOpBuilder(OpCatalog.nd4j())::build;
        WorkerMain.serve(() -> new InProcessCpuBackend((spec, inputs) -> {
            switch (spec.op().value()) {
                case "test-exit":
                    System.exit(((Number) attr(spec, "code")).intValue());
                    return null;
                case "test-sleep":
                    sleep(spec);
                    throw new IllegalStateException("woke up");
                default:
                    return nd4j.build(spec, inputs);
            }
        }));
    }

    /** Starts this class as a worker from the test class path. */
    public static WorkerOptions options() {
        return WorkerOptions.cpu().withMainClass(TestWorkerMain.class.getName());
    }

    private static void sleep(OpSpec spec) {
        try {
            Object marker = attr(spec, "marker");
            if (marker != null) {
                Files.writeString(Path.of(marker.toString()), "running");
            }
            Thread.sleep((long) (((Number) attr(spec, "seconds")).doubleValue() * 1000));
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object attr(OpSpec spec, String name) {
        Located<Object> a = spec.attrs().get(name);
        return a == null ? null : a.value();
    }
}
