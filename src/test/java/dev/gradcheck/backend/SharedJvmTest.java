package dev.gradcheck.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.result.Engine;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which runs take the launcher's offer of the front end's JVM, and what taking or declining it leaves. */
class SharedJvmTest {

    private static final String CPU = """
            name: a
            op: tanh
            inputs: {x: {shape: [3]}}
            """;

    @TempDir
    Path offer;

    private final AtomicInteger releases = new AtomicInteger();

    @AfterEach
    void noOffer() {
        System.clearProperty(SharedJvm.OFFER_PROPERTY);
        SharedJvm.forget();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<LoadedSpec> specs(String text) {
        return new SpecLoader().loadText("t.yaml", "t", text);
    }

    private boolean take(List<LoadedSpec> specs, List<Engine> engines, boolean needsWorker) {
        System.setProperty(SharedJvm.OFFER_PROPERTY, offer.toString());
        SharedJvm.holding(releases::incrementAndGet);
        assertEquals("held", read(offer.resolve(SharedJvm.MARK)), "nothing printed, no check run yet");
        return SharedJvm.take(specs, engines, needsWorker);
    }

    @Test
    void aSmallCpuRunTakesTheOfferMarksItAndKeepsItsReportHeld() {
        assertTrue(take(specs(CPU), null, false));
        assertTrue(SharedJvm.taken());
        assertEquals("checking", read(offer.resolve(SharedJvm.MARK)), "the launcher's mark");
        assertEquals(0, releases.get(), "held until the run is over");
    }

    @Test
    void everyOtherRunGoesToWorkersAndLetsItsReportOut() {
        List<LoadedSpec> many = new ArrayList<>(Collections.nCopies(SharedJvm.MOST_CHECKS + 1, specs(CPU).get(0)));
        List<LoadedSpec> cuda = specs(CPU + "backends: [cpu, cuda]\n");
        assertFalse(take(many, null, false), "too many checks");
        assertFalse(take(specs(CPU.replace("[3]", "[256, 257]")), null, false), "too many input elements");
        assertFalse(take(cuda, null, false), "a spec that also runs on CUDA");
        assertFalse(take(specs(CPU), List.of(Engine.CPU, Engine.CUDA), false), "--backend all");
        assertFalse(take(specs(CPU), null, true), "--jobs 2, --max-memory, plugins, worker options");
        assertEquals(5, releases.get());
        assertFalse(SharedJvm.taken());
        assertEquals("declined", read(offer.resolve(SharedJvm.MARK)), "a crash from now on is the front end's");
        assertTrue(take(new ArrayList<>(many.subList(0, SharedJvm.MOST_CHECKS)), List.of(Engine.CPU), false),
                "as many as it allows, on --backend cpu");
        SharedJvm.forget();
        assertTrue(take(specs(CPU.replace("[3]", "[256, 256]")), null, false), "as many elements as it allows");
    }

    @Test
    void withoutTheLaunchersOfferNothingIsTaken() {
        SharedJvm.holding(releases::incrementAndGet);
        assertFalse(SharedJvm.take(specs(CPU), null, false));
        assertFalse(SharedJvm.taken());
        assertEquals(1, releases.get());
    }
}
