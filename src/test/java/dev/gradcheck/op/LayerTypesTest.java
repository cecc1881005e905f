package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gradcheck.op.catalog.LayerTypes;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.SourcePos;
import org.junit.jupiter.api.Test;

/** The layer types the front end lists (list-ops --layers) are the DL4J classes a spec's type resolves to. */
class LayerTypesTest {

    @Test
    void everyListedTypeIsADl4jLayerOfThatName() throws Exception {
        for (LayerTypes t : LayerTypes.all()) {
            Class<?> c = LayerConfigs.type(new Located<>(t.name(), new SourcePos("t.yaml", 1, 1)),
                    LayerTypesTest.class.getClassLoader());
            assertEquals(t.name(), c.getSimpleName());
        }
    }
}
