package dev.gradcheck.backend;

import dev.gradcheck.backend.nd4j.InProcessBackend;
import dev.gradcheck.backend.nd4j.WorkerMain;
import dev.gradcheck.check.FunctionFactory;
import dev.gradcheck.check.Functions;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.Engine;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.OpSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A worker with test-only operators that misbehave the ways real ones do, and otherwise ND4J's ops:
 * {@code test-exit} calls System.exit({@code code}) as a careless plugin might; {@code test-oom} throws
 * OutOfMemoryError; {@code test-pid} errors with its JVM's process id (which worker ran a check); {@code test-sleep}
 * hangs for
 * {@code seconds} (first creating the file {@code marker}, when given, so a test knows it is running);
 * {@code test-print} prints {@code lines} numbered lines, then errors; {@code test-spawn} starts {@code sleep 600},
 * writes its pid to the file {@code pidfile}, and hangs.
 * With the system property {@value #PERTURB} = p, every op's outputs and gradients are scaled by 1 + p: a
 * consistent engine that computes slightly different numbers, as another backend might.
 */
public final class TestWorkerMain {

    public static final String PERTURB = "gradcheck.test.perturb";
    /**
     * Seconds the first check in the JVM sleeps before it builds its function: a cold JVM's slow first gradient,
     * made long enough that no real check can be mistaken for it.
     */
    public static final String COLD_SECONDS = "gradcheck.test.cold-seconds";
    private static final AtomicBoolean COLD = new AtomicBoolean(true);
    /** Set on a CPU worker that stands in for the CUDA one, so it is not refused for running on the CPU. */
    static final String STAND_IN = "gradcheck.test.stand-in";

    private TestWorkerMain() {}

    public static void main(String[] args) throws IOException {
        FunctionFactory nd4j = perturbed(new Nd4jOpBuilder(OpCatalog.nd4j())::build,
                Double.parseDouble(System.getProperty(PERTURB, "0")));
        double coldSeconds = Double.parseDouble(System.getProperty(COLD_SECONDS, "0"));
        WorkerMain.Setup setup = WorkerMain.Setup.fromSystemProperties();
        WorkerMain.serve(setup, () -> new InProcessBackend(setup.engine(), (spec, inputs) -> {
            if (COLD.getAndSet(false)) {
                sleep(coldSeconds);
            }
            switch (spec.op().value()) {
                case "test-exit":
                    System.exit(((Number) attr(spec, "code")).intValue());
                    return null;
                case "test-oom":
                    throw new OutOfMemoryError("test-oom: as if the heap had run out");
                case "test-sleep":
                    sleep(spec);
                    throw new IllegalStateException("woke up");
                case "test-print":
                    long lines = ((Number) attr(spec, "lines")).longValue();
                    for (long i = 1; i <= lines; i++) {
                        System.out.println("printed line " + i);
                    }
                    throw new IllegalStateException("printed " + lines + " lines");
                case "test-spawn":
                    spawn(attr(spec, "pidfile").toString());
                    sleep(600);
                    throw new IllegalStateException("woke up");
                case "test-pid":
                    throw new IllegalStateException("worker pid " + ProcessHandle.current().pid());
                default:
                    return nd4j.build(spec, inputs);
            }
        }, setup.budget()), !Boolean.getBoolean(STAND_IN));
    }

    /** A CPU worker posing as the CUDA one, its numbers scaled by 1 + perturb (0: identical to the CPU's). */
    public static WorkerOptions standInForCuda(double perturb) {
        return options().withEngine(Engine.CUDA).withProperty(STAND_IN, "true").withProperty(PERTURB,
                Double.toString(perturb));
    }

    /** Starts this class as a worker from the test class path. */
    public static WorkerOptions options() {
        return WorkerOptions.cpu().withMainClass(TestWorkerMain.class.getName());
    }

    private static FunctionFactory perturbed(FunctionFactory factory, double p) {
        if (p == 0) {
            return factory;
        }
        return (spec, inputs) -> new Functions.Delegate(factory.build(spec, inputs)) {
            @Override
            public Map<String, INDArray> forward(Map<String, INDArray> in) {
                Map<String, INDArray> y = new HashMap<>(super.forward(in));
                y.replaceAll((name, v) -> v.mul(1 + p));
                return y;
            }

            @Override
            public Map<String, INDArray> vjp(Map<String, INDArray> in, Map<String, INDArray> ct, List<String> wrt) {
                Map<String, INDArray> g = new HashMap<>(super.vjp(in, ct, wrt));
                g.replaceAll((name, v) -> v.mul(1 + p));
                return g;
            }
        };
    }

    private static void sleep(OpSpec spec) {
        try {
            Object marker = attr(spec, "marker");
            if (marker != null) {
                Files.writeString(Path.of(marker.toString()), "running");
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        sleep(((Number) attr(spec, "seconds")).doubleValue());
    }

    private static void sleep(double seconds) {
        try {
            Thread.sleep((long) (seconds * 1000));
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object attr(OpSpec spec, String name) {
        Located<Object> a = spec.attrs().get(name);
        return a == null ? null : a.value();
    }

    /** A child process of the worker's own, as an operator might start one; its pid written where the test looks. */
    private static void spawn(String pidFile) {
        try {
            Process child = new ProcessBuilder("sleep", "600").start();
            Path tmp = Path.of(pidFile + ".tmp");
            Files.writeString(tmp, Long.toString(child.pid()));
            Files.move(tmp, Path.of(pidFile), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
