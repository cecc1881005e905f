package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.op.catalog.OpInfo;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An op is built from the class its catalog entry names, without waiting for SameDiff's class registry: the class
 * must be the registry's own, and an entry whose class this class path lacks falls back to the registry.
 */
class OpPrototypeTest {

    @Test
    void everyCheckableOpGetsTheRegistrysClass() {
        List<String> different = new ArrayList<>();
        List<OpInfo> checkable = OpCatalog.nd4j().all().stream().filter(OpInfo::checkable).toList();
        for (OpInfo info : checkable) {
            Class<?> fromCatalog = Nd4jOpBuilder.prototype(info.name(), info.javaClass()).getClass();
            Class<?> fromRegistry = Nd4jOpBuilder.prototype(info.name()).getClass();
            if (fromCatalog != fromRegistry) {
                different.add(info.name() + ": " + fromCatalog.getName() + " vs " + fromRegistry.getName());
            }
        }
        assertTrue(checkable.size() > 300, "the catalog lists ND4J's ops: " + checkable.size());
        assertEquals(List.of(), different);
    }

    @Test
    void aClassNotOnTheClassPathOrNoOpFallsBackToTheRegistry() {
        Class<?> tanh = Nd4jOpBuilder.prototype("tanh").getClass();
        for (String javaClass : List.of("org.example.NoSuchOp", "java.lang.String", "java.util.List")) {
            OpInfo info = new OpInfo("tanh", "nd4j", javaClass, false, List.of());
            assertEquals(tanh, Nd4jOpBuilder.prototype(info.name(), info.javaClass()).getClass(), javaClass);
        }
    }
}
