package dev.gradcheck.op;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import org.nd4j.autodiff.samediff.SameDiff;

/**
 * Lets go of what a SameDiff-defined DL4J layer's last call computed. DL4J's SameDiffLayer (LocallyConnected1D/2D,
 * the capsule and attention layers, a user's own) runs its graph in a SameDiff session kept per thread, whose
 * memory manager (DL4J's, when the layer is called without workspaces) never frees: every array the graph made stays
 * referenced by the session until the layer's next call replaces them. LocallyConnected2D on 8x64x28x28 makes 1.4 GB
 * in one backward (a full-size input gradient per output position, and their running sums): kept, the next
 * backward's 1.4 GB came on top of it (docs/benchmarks-scale.md, "LocallyConnected at a real size"). Dropping the
 * sessions after a call makes those arrays garbage that the collector guard ({@link CollectingFunction}) frees; the
 * next call opens a new session, as the first call did (no measurable cost beside the graph's own work).
 * The layer holds its SameDiff in a protected field that DL4J offers no accessor for, so it is found by reflection;
 * where it cannot be (another DL4J), nothing is released and the layer keeps its sessions as before.
 */
final class SameDiffSessions {

    private final List<Field> fields;

    private SameDiffSessions(List<Field> fields) {
        this.fields = fields;
    }

    /** The SameDiff fields of the layer's class and its superclasses; none for a layer that is no SameDiff one. */
    static SameDiffSessions of(Object layer) {
        List<Field> found = new ArrayList<>();
        for (Class<?> c = layer.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (SameDiff.class.isAssignableFrom(f.getType()) && f.trySetAccessible()) {
                    found.add(f);
                }
            }
        }
        return new SameDiffSessions(List.copyOf(found));
    }

    /** Drops the sessions of the layer's graph and of its gradient function, with the arrays they hold. */
    void release(Object layer) {
        for (Field f : fields) {
            try {
                SameDiff graph = (SameDiff) f.get(layer);
                if (graph != null) {
                    graph.getSessions().clear();
                    graph.definedFunctionNames().forEach(name -> graph.getFunction(name).getSessions().clear());
                }
            } catch (IllegalAccessException e) {
                // made accessible above; should another DL4J refuse, the sessions stay as DL4J keeps them
            }
        }
    }
}
