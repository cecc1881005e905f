package dev.gradcheck.backend.nd4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.gradcheck.backend.BackendFactory;
import dev.gradcheck.backend.WorkerOptions;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/**
 * What the front end reaches on this side by name, not by a link (so that the architecture test can hold it to
 * no link at all), names what is here: the worker's entry point and the engine {@link BackendFactory#CPU} finds.
 */
class NamedByTheFrontEndTest {

    @Test
    void theWorkersEntryPointIsWorkerMain() {
        assertEquals(WorkerMain.class.getName(), WorkerOptions.WORKER_MAIN);
        assertEquals(WorkerMain.class.getName(), WorkerOptions.cpu().mainClass());
    }

    @Test
    void theInProcessEngineIsFoundAsAService() {
        assertInstanceOf(InProcessCpu.class, ServiceLoader.load(BackendFactory.class).findFirst().orElseThrow());
    }
}
