package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each reason a CUDA worker cannot run, said exactly, from canned nvidia-smi answers. */
class CudaProbeTest {

    private static CudaProbe.Result probe(String... smiLines) {
        return CudaProbe.probe(true, command -> {
            assertEquals("nvidia-smi", command.get(0));
            return List.of(smiLines);
        });
    }

    @Test
    void withoutTheCudaProfileTheClassPathSaysSo() {
        CudaProbe.Result r = CudaProbe.probe(false, command -> {
            throw new AssertionError("nvidia-smi need not run");
        });
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
        CudaProbe.Result missing = CudaProbe.probe(true, command -> {
            throw new IOException("Cannot run program \"nvidia-smi\": error=2, No such file or directory");
        });
        assertFalse(missing.usable());
        assertTrue(missing.message().startsWith("cuda: no usable CUDA device (nvidia-smi failed: Cannot run"),
                missing.message());
        CudaProbe.Result none = probe();
        assertEquals("cuda: no CUDA device (nvidia-smi lists none)", none.message());
    }

    @Test
    void hopperIsTooNewForNd4jCudaM21() {
        CudaProbe.Result r = probe("0, NVIDIA H100 80GB HBM3, 9.0");
        assertFalse(r.usable());
        assertEquals("cuda: device 0 (NVIDIA H100 80GB HBM3) has compute capability 9.0, but nd4j-cuda-11.6"
                + " 1.0.0-M2.1 carries kernels for sm_37 to sm_86 only and no PTX, so it cannot run there",
                r.message());
    }

    @Test
    void theFirstSupportedDeviceIsUsed() {
        CudaProbe.Result r = probe("0, NVIDIA H100 80GB HBM3, 9.0", "1, NVIDIA A100-SXM4-40GB, 8.0");
        assertTrue(r.usable(), r.message());
        assertEquals("1", r.device());
        assertEquals("cuda: device 1 (NVIDIA A100-SXM4-40GB, compute capability 8.0)", r.message());
        assertTrue(probe("0, NVIDIA GeForce RTX 3090, 8.6").usable(), "sm_86 is the newest carried");
        assertFalse(probe("0, Tesla K10, 3.0").usable(), "older than sm_37");
    }

    @Test
    void anUnreadableCapabilityIsReported() {
        CudaProbe.Result r = probe("0, Some GPU, [N/A]");
        assertFalse(r.usable());
        assertTrue(r.message().contains("cannot read the compute capability of device 0 (Some GPU)"), r.message());
    }
}
