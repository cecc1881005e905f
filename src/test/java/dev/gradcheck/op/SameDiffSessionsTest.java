package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;
import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A SameDiff-defined layer keeps every array of its last call in a session until its next call; gradcheck's layer
 * function drops the sessions after each call, so that those arrays are garbage the collector guard can free
 * (LocallyConnected2D on 8x64x28x28 held 1.4 GB between two backwards).
 */
class SameDiffSessionsTest {

    private static LayerFunction identityLayer() throws Exception {
        OpSpec spec = new SpecLoader().loadText("layer.yaml", "layer", """
                name: identity-samediff
                layer: {type: dev.gradcheck.op.IdentitySameDiffLayer}
                inputs:
                  x: {shape: [2, 3]}
                """).get(0).specOrThrow();
        return LayerFunction.build(spec, Map.of("x", Nd4j.rand(DataType.DOUBLE, 2, 3)),
                SameDiffSessionsTest.class.getClassLoader());
    }

    /** The graph the DL4J layer inside the function runs, and the one its backward runs. */
    private static List<SameDiff> graphs(LayerFunction f) throws ReflectiveOperationException {
        Field layerField = LayerFunction.class.getDeclaredField("layer");
        layerField.setAccessible(true);
        Object layer = layerField.get(f);
        Field graphField = org.deeplearning4j.nn.layers.samediff.SameDiffLayer.class.getDeclaredField("sameDiff");
        graphField.setAccessible(true);
        SameDiff graph = (SameDiff) graphField.get(layer);
        SameDiff grad = graph.getFunction("grad");
        return grad == null ? List.of(graph) : List.of(graph, grad);
    }

    @Test
    void aLayerFunctionKeepsNoSessionAfterAForwardOrABackward() throws Exception {
        LayerFunction f = identityLayer();
        INDArray x = Nd4j.rand(DataType.DOUBLE, 2, 3);
        f.forward(Map.of("x", x));
        graphs(f).forEach(g -> assertTrue(g.getSessions().isEmpty(), "forward's session kept"));
        Map<String, INDArray> dx = f.vjp(Map.of("x", x), Map.of(LayerFunction.OUTPUT, Nd4j.ones(DataType.DOUBLE,
                2, 3)), List.of("x"));
        assertEquals(2, graphs(f).size(), "the backward made its gradient graph");
        graphs(f).forEach(g -> assertTrue(g.getSessions().isEmpty(), "backward's session kept"));
        assertEquals(Nd4j.ones(DataType.DOUBLE, 2, 3).mul(2), dx.get("x"), "the layer's (doubled) gradient still");
    }

    @Test
    void releaseEmptiesTheSessionsDl4jLeftAfterACall() throws Exception {
        LayerFunction f = identityLayer();
        Field layerField = LayerFunction.class.getDeclaredField("layer");
        layerField.setAccessible(true);
        org.deeplearning4j.nn.api.Layer layer = (org.deeplearning4j.nn.api.Layer) layerField.get(f);
        layer.setInput(Nd4j.rand(DataType.DOUBLE, 2, 3), org.deeplearning4j.nn.workspace.LayerWorkspaceMgr
                .noWorkspaces());
        layer.activate(true, org.deeplearning4j.nn.workspace.LayerWorkspaceMgr.noWorkspaces());
        assertFalse(graphs(f).get(0).getSessions().isEmpty(), "DL4J keeps the session of its call");
        SameDiffSessions.of(layer).release(layer);
        assertTrue(graphs(f).get(0).getSessions().isEmpty());
    }
}
