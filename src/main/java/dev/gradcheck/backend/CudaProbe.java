package dev.gradcheck.backend;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Whether a CUDA worker can run here, decided before one is started: a JVM that loads nd4j-cuda without a usable
 * device fails slowly and obscurely, and one on a too-new GPU fails only at the first kernel launch. The answer
 * carries the exact reason, which the report shows on every skipped check.
 */
public final class CudaProbe {

    /** The class ND4J's CUDA backend registers; present only when gradcheck was built with {@code -Pcuda}. */
    static final String CUDA_BACKEND_CLASS = "org.nd4j.linalg.jcublas.JCublasBackend";
    /** nd4j-cuda-11.6 1.0.0-M2.1 carries SASS for sm_37 ... sm_86 and no PTX, so nothing else can run it. */
    static final int MIN_CAPABILITY = 37;
    static final int MAX_CAPABILITY = 86;
    private static final String ARCHS = "sm_37 to sm_86";

    /**
     * @param usable  whether a CUDA worker should be started
     * @param message why not (or which device will be used)
     * @param device  the nvidia-smi index of the device to use, or null
     */
    public record Result(boolean usable, String message, String device) {}

    /** Reads a command's stdout lines; the probe runs nvidia-smi through it, tests give canned output. */
    public interface CommandRunner {
        List<String> run(List<String> command) throws IOException;
    }

    private CudaProbe() {}

    /** Probes this machine: the class path, then nvidia-smi. */
    public static Result probe() {
        return probe(classPresent(CUDA_BACKEND_CLASS), CudaProbe::runCommand);
    }

    static Result probe(boolean cudaOnClassPath, CommandRunner runner) {
        if (!cudaOnClassPath) {
            return new Result(false, "cuda: nd4j-cuda is not on the class path (gradcheck was built without the cuda"
                    + " profile; build it with `mvn -Pcuda package`)", null);
        }
        List<String> lines;
        try {
            lines = runner.run(List.of("nvidia-smi", "--query-gpu=index,name,compute_cap", "--format=csv,noheader"));
        } catch (IOException e) {
            return new Result(false, "cuda: no usable CUDA device (nvidia-smi failed: " + e.getMessage() + ")", null);
        }
        List<String> devices = lines.stream().filter(l -> !l.isBlank()).toList();
        if (devices.isEmpty()) {
            return new Result(false, "cuda: no CUDA device (nvidia-smi lists none)", null);
        }
        List<String> refusals = new ArrayList<>();
        for (String line : devices) {
            String[] f = line.split(",\\s*");
            if (f.length < 3) {
                return new Result(false, "cuda: cannot read nvidia-smi's device list: " + line, null);
            }
            String index = f[0].strip();
            String name = f[1].strip();
            int capability;
            try {
                String[] parts = f[2].strip().split("\\.");
                capability = Integer.parseInt(parts[0]) * 10 + Integer.parseInt(parts[1]);
            } catch (RuntimeException e) {
                return new Result(false, "cuda: cannot read the compute capability of device " + index + " (" + name
                        + ") from nvidia-smi: '" + f[2].strip() + "'", null);
            }
            if (capability >= MIN_CAPABILITY && capability <= MAX_CAPABILITY) {
                return new Result(true, "cuda: device " + index + " (" + name + ", compute capability "
                        + capability / 10 + "." + capability % 10 + ")", index);
            }
            refusals.add("device " + index + " (" + name + ") has compute capability " + capability / 10 + "."
                    + capability % 10);
        }
        return new Result(false, "cuda: " + String.join("; ", refusals) + ", but nd4j-cuda-11.6 1.0.0-M2.1 carries"
                + " kernels for " + ARCHS + " only and no PTX, so it cannot run there", null);
    }

    private static boolean classPresent(String name) {
        try {
            Class.forName(name, false, CudaProbe.class.getClassLoader()); // no static init: that would load CUDA
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static List<String> runCommand(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (InputStream in = p.getInputStream()) {
            String out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out");
            }
            if (p.exitValue() != 0) {
                throw new IOException("exit status " + p.exitValue() + ": " + out.strip());
            }
            return out.lines().toList();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }
}
