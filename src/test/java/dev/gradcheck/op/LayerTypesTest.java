package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gradcheck.op.catalog.LayerTypes;
import dev.gradcheck.spec.Located;
import dev.gradcheck.spec.SourcePos;
import org.junit.jupiter.api.Test;

/**
 * The layer types the front end lists (list-ops --layers) are the DL4J classes a spec's type resolves to: a layer's
 * configuration, or a graph vertex's.
 */
class LayerTypesTest {

    @Test
    void everyListedTypeIsADl4jLayerOfThatName() throws Exception {
        for (LayerTypes t : LayerTypes.all()) {
            ClassLoader loader = LayerTypesTest.class.getClassLoader();
            Class<?> c = t.isVertex() ? VertexConfigs.type(t.name(), loader).orElseThrow()
                    : LayerConfigs.type(new Located<>(t.name(), new SourcePos("t.yaml", 1, 1)), loader);
            assertEquals(t.name(), c.getSimpleName());
        }
    }
}
