package dev.gradcheck.backend;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Whether a CUDA worker can run here, decided before one is started: a JVM that loads nd4j-cuda without a usable
 * device fails slowly and obscurely, and one on a too-new GPU fails only at the first kernel launch. The answer
 * carries the exact reason, which the report shows on every skipped check.
 */
public final class CudaProbe {

    /** The class ND4J's CUDA backend registers; present only when gradcheck was built with {@code -Pcuda}. */
    static final String CUDA_BACKEND_CLASS = "org.nd4j.linalg.jcublas.JCublasBackend";
    /**
     * nd4j-cuda-11.6 1.0.0-M2.1 carries SASS for sm_37 ... sm_86 and no PTX. SASS for sm_XY runs on any device of
     * the same major version X with minor version at least Y, so an 8.7 or 8.9 device (Orin, Ada: L4, L40, RTX
     * 40xx) runs the sm_86 code; nothing of major version 9 or above (Hopper) can run it.
     */
    static final int MIN_CAPABILITY = 37;
    static final int FIRST_UNSUPPORTED = 90;
    private static final String ARCHS = "sm_37 to sm_86 (compute capability 3.7 up to 8.x)";
    /** The variable CUDA reads to choose devices; a CI runner may have set it to the GPU it hands this job. */
    public static final String VISIBLE_DEVICES = "CUDA_VISIBLE_DEVICES";

    /** Reads a command's stdout lines; the probe runs nvidia-smi through it, tests give canned output. */
    public interface CommandRunner {
        List<String> run(List<String> command) throws IOException;
    }

    private CudaProbe() {}

    /** Probes this machine: the class path, then nvidia-smi, within this process's {@value #VISIBLE_DEVICES}. */
    public static Availability probe() {
        return probe(classPresent(CUDA_BACKEND_CLASS), CudaProbe::runCommand, System.getenv(VISIBLE_DEVICES));
    }

    /**
     * @param visibleDevices the inherited {@value #VISIBLE_DEVICES}, or null. When set, it is kept (the worker
     *                       inherits it) and only the first device it names, the one CUDA numbers 0, is judged;
     *                       entries are matched against nvidia-smi's UUIDs and indices.
     */
    static Availability probe(boolean cudaOnClassPath, CommandRunner runner, String visibleDevices) {
        if (!cudaOnClassPath) {
            return new Availability(false, "cuda: nd4j-cuda is not on the class path (gradcheck was built without the"
                    + " cuda profile; build it with `mvn -Pcuda package`)");
        }
        List<String> lines;
        try {
            lines = runner.run(List.of("nvidia-smi", "--query-gpu=index,uuid,name,compute_cap",
                    "--format=csv,noheader"));
        } catch (IOException e) {
            return new Availability(false, "cuda: no usable CUDA device (nvidia-smi failed: " + e.getMessage() + ")");
        }
        List<Device> devices = new ArrayList<>();
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",\\s*");
            if (f.length < 4) {
                return new Availability(false, "cuda: cannot read nvidia-smi's device list: " + line);
            }
            devices.add(new Device(f[0].strip(), f[1].strip(), f[2].strip(), f[3].strip()));
        }
        if (devices.isEmpty()) {
            return new Availability(false, "cuda: no CUDA device (nvidia-smi lists none)");
        }
        if (visibleDevices != null) {
            return judgeInherited(devices, visibleDevices);
        }
        List<String> refusals = new ArrayList<>();
        for (Device d : devices) {
            if (d.code() < 0) {
                return d.unreadable();
            }
            String refusal = d.refusal();
            if (refusal == null) {
                // by UUID: nvidia-smi numbers devices in PCI bus order, CUDA by default fastest first
                return new Availability(true, "cuda: " + d.described(), Map.of(VISIBLE_DEVICES, d.uuid));
            }
            refusals.add(refusal);
        }
        return refused(refusals);
    }

    /** The runner chose the devices: keep its choice and judge the device CUDA will number 0. */
    private static Availability judgeInherited(List<Device> devices, String visibleDevices) {
        String first = visibleDevices.split(",")[0].strip();
        if (first.isEmpty()) {
            return new Availability(false, "cuda: " + VISIBLE_DEVICES + " is set but names no device");
        }
        for (Device d : devices) {
            if (d.uuid.equals(first) || d.index.equals(first)) {
                if (d.code() < 0) {
                    return d.unreadable();
                }
                String refusal = d.refusal();
                return refusal == null
                        ? new Availability(true, "cuda: " + d.described() + ", the first of " + VISIBLE_DEVICES + "="
                                + visibleDevices, Map.of())
                        : refused(List.of(refusal));
            }
        }
        return new Availability(false, "cuda: " + VISIBLE_DEVICES + "=" + visibleDevices + " names no device that"
                + " nvidia-smi lists");
    }

    private static Availability refused(List<String> refusals) {
        return new Availability(false, "cuda: " + String.join("; ", refusals) + ", but nd4j-cuda-11.6 1.0.0-M2.1"
                + " carries kernels for " + ARCHS + " only and no PTX, so it cannot run there");
    }

    /** One line of nvidia-smi's device list. */
    private record Device(String index, String uuid, String name, String capability) {

        String described() {
            return "device " + index + " (" + name + ", compute capability " + capability + ")";
        }

        /** Why nd4j-cuda M2.1 cannot run here, or null when it can. */
        String refusal() {
            int cc = code();
            return cc >= MIN_CAPABILITY && cc < FIRST_UNSUPPORTED ? null
                    : "device " + index + " (" + name + ") has compute capability " + capability;
        }

        /** Major * 10 + minor, or -1 when nvidia-smi's value is not a version. */
        int code() {
            try {
                String[] parts = capability.split("\\.");
                return Integer.parseInt(parts[0]) * 10 + Integer.parseInt(parts[1]);
            } catch (RuntimeException e) {
                return -1;
            }
        }

        Availability unreadable() {
            return new Availability(false, "cuda: cannot read the compute capability of device " + index + " (" + name
                    + ") from nvidia-smi: '" + capability + "'");
        }
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
