package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each reason a CUDA worker cannot run, said exactly, from canned nvidia-smi answers. */
class CudaProbeTest {

    private static Availability probe(String... smiLines) {
        return probeWithin(null, smiLines);
    }

    /** @param visibleDevices the CUDA_VISIBLE_DEVICES gradcheck inherited, or null */
    private static Availability probeWithin(String visibleDevices, String... smiLines) {
        return CudaProbe.probe(true, command -> {
            assertEquals("nvidia-smi", command.get(0));
            assertTrue(command.get(1).contains("index,uuid,name,compute_cap"), command.toString());
            return List.of(smiLines);
        }, visibleDevices);
    }

    @Test
    void withoutTheCudaProfileTheClassPathSaysSo() {
        Availability r = CudaProbe.probe(false, command -> {
            throw new AssertionError("nvidia-smi need not run");
        }, null);
        assertFalse(r.usable());
        assertTrue(r.message().startsWith("cuda: nd4j-cuda is not on the class path"), r.message());
        assertTrue(r.message().contains("mvn -Pcuda package"), r.message());
    }

    @Test
    void thisBuildHasNoCudaBackend() {
        // the test class path is the default build's: the real probe stops at the class path
        assertFalse(CudaProbe.probe().usable());
    }

    @Test
    void noNvidiaSmiOrNoDevice() {
        Availability missing = CudaProbe.probe(true, command -> {
            throw new IOException("Cannot run program \"nvidia-smi\": error=2, No such file or directory");
        }, null);
        assertFalse(missing.usable());
        assertTrue(missing.message().startsWith("cuda: no usable CUDA device (nvidia-smi failed: Cannot run"),
                missing.message());
        Availability none = probe();
        assertEquals("cuda: no CUDA device (nvidia-smi lists none)", none.message());
    }

    @Test
    void hopperIsTooNewForNd4jCudaM21() {
        Availability r = probe("0, GPU-h100, NVIDIA H100 80GB HBM3, 9.0");
        assertFalse(r.usable());
        assertEquals("cuda: device 0 (NVIDIA H100 80GB HBM3) has compute capability 9.0, but nd4j-cuda-11.6"
                + " 1.0.0-M2.1 carries kernels for sm_37 to sm_86 (compute capability 3.7 up to 8.x) only and no"
                + " PTX, so it cannot run there", r.message());
        assertFalse(probe("0, GPU-b200, NVIDIA B200, 10.0").usable(), "Blackwell likewise");
    }

    @Test
    void theFirstSupportedDeviceIsUsedAndChosenByUuid() {
        Availability r = probe("0, GPU-h100, NVIDIA H100 80GB HBM3, 9.0", "1, GPU-a100, NVIDIA A100-SXM4-40GB, 8.0");
        assertTrue(r.usable(), r.message());
        assertEquals(Map.of("CUDA_VISIBLE_DEVICES", "GPU-a100"), r.environment(),
                "by UUID: CUDA's own device order need not be nvidia-smi's");
        assertEquals("cuda: device 1 (NVIDIA A100-SXM4-40GB, compute capability 8.0)", r.message());
        assertTrue(probe("0, GPU-x, NVIDIA GeForce RTX 3090, 8.6").usable(), "sm_86 is the newest carried");
        assertFalse(probe("0, GPU-x, Tesla K10, 3.0").usable(), "older than sm_37");
        assertTrue(probe("0, GPU-x, Tesla K80, 3.7").usable(), "sm_37 is the oldest carried");
    }

    @Test
    void adaAndOrinRunTheSm86Code() {
        // SASS for sm_86 runs on 8.7 and 8.9: same major version, higher minor
        Availability l4 = probe("0, GPU-l4, NVIDIA L4, 8.9");
        assertTrue(l4.usable(), l4.message());
        assertEquals("cuda: device 0 (NVIDIA L4, compute capability 8.9)", l4.message());
        assertTrue(probe("0, GPU-orin, Orin, 8.7").usable());
        assertTrue(probe("0, GPU-x, NVIDIA GeForce RTX 4090, 8.9").usable());
    }

    @Test
    void aDeviceChoiceTheRunnerMadeIsKeptAndJudged() {
        String[] smi = {"0, GPU-a100, NVIDIA A100-SXM4-40GB, 8.0", "1, GPU-h100, NVIDIA H100 80GB HBM3, 9.0"};
        Availability a100 = probeWithin("GPU-a100", smi);
        assertTrue(a100.usable(), a100.message());
        assertEquals(Map.of(), a100.environment(), "the worker inherits CUDA_VISIBLE_DEVICES unchanged");

        Availability h100 = probeWithin("1", smi);
        assertFalse(h100.usable(), "the runner handed this job the H100, which M2.1 cannot run on");
        assertTrue(h100.message().contains("device 1 (NVIDIA H100 80GB HBM3) has compute capability 9.0"),
                h100.message());

        assertFalse(probeWithin("", smi).usable(), "an empty CUDA_VISIBLE_DEVICES hides every device");
        Availability unknown = probeWithin("GPU-other", smi);
        assertFalse(unknown.usable());
        assertEquals("cuda: CUDA_VISIBLE_DEVICES=GPU-other names no device that nvidia-smi lists", unknown.message());
    }

    @Test
    void anUnreadableCapabilityIsReported() {
        Availability r = probe("0, GPU-x, Some GPU, [N/A]");
        assertFalse(r.usable());
        assertTrue(r.message().contains("cannot read the compute capability of device 0 (Some GPU)"), r.message());
    }
}
