package dev.gradcheck.op.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gradcheck.op.OpCatalogGenerator;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.SpecLoader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The op catalog the build writes: lossless, refused when of another format, and what ND4J says today. */
class OpCatalogTest {

    /** Three ops of the three kinds: one with a binding and arguments, one native only, one with nothing. */
    static final OpCatalog SMALL = new OpCatalog(List.of(
            new OpCatalog.Entry(new OpInfo("softmax", "nd4j", "org.example.SoftMax", true,
                    List.of(new ArgInfo("dimension", ArgInfo.Kind.INT, 0), new ArgInfo("input", ArgInfo.Kind.INPUT, 0))),
                    true, new OpBinding(List.of(new ArgInfo("dimension", ArgInfo.Kind.INT, 0)), Set.of("dimension"))),
            new OpCatalog.Entry(new OpInfo("MaxPool", "nd4j", null, true, List.of()), true, null),
            new OpCatalog.Entry(new OpInfo("noop", "nd4j", "org.example.NoOp", false, List.of()), false,
                    new OpBinding(List.of(), Set.of()))));

    private static OpCatalog roundTrip(OpCatalog catalog) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        catalog.write(bytes, "test key");
        return OpCatalog.read(new ByteArrayInputStream(bytes.toByteArray()));
    }

    @Test
    void writingAndReadingKeepsEveryField() throws IOException {
        assertEquals(SMALL.entries(), roundTrip(SMALL).entries());
        assertEquals(List.of("MaxPool", "softmax"), roundTrip(SMALL).withBackward().stream().map(OpInfo::name)
                .toList());
        assertEquals(Set.of("noop", "softmax"), roundTrip(SMALL).checkableNames());
    }

    @Test
    void theKeyIsReadBackAndAnotherFormatIsRefused() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SMALL.write(bytes, "nd4j 1; code abc");
        assertEquals("nd4j 1; code abc", OpCatalog.keyOf(new ByteArrayInputStream(bytes.toByteArray())));
        String other = bytes.toString(StandardCharsets.UTF_8).replace("\"format\":1", "\"format\":99");
        IOException e = assertThrows(IOException.class,
                () -> OpCatalog.read(new ByteArrayInputStream(other.getBytes(StandardCharsets.UTF_8))));
        assertTrue(e.getMessage().contains("rebuild gradcheck"), e.getMessage());
    }

    /** The one way from the catalog to ND4J goes by name, not by a link the architecture test would follow. */
    @Test
    void theGeneratorItScansWithIsNamedRight() throws NoSuchMethodException {
        assertEquals(OpCatalogGenerator.class.getName(), OpCatalog.GENERATOR);
        assertEquals(OpCatalog.class, OpCatalogGenerator.class.getMethod("scan").getReturnType());
    }

    @Test
    void theBuildWroteTheCatalogBesideTheClass() throws IOException {
        try (InputStream in = OpCatalog.class.getResourceAsStream(OpCatalog.RESOURCE)) {
            assertNotNull(in, "target/classes holds " + OpCatalog.RESOURCE + " (exec-maven-plugin, process-classes)");
            assertTrue(OpCatalog.keyOf(in).startsWith("nd4j "));
        }
        OpCatalog catalog = OpCatalog.nd4j();
        assertTrue(catalog.all().size() > 500, "ND4J's registry and SameDiff's classes: " + catalog.all().size());
        assertTrue(catalog.find("softmax").orElseThrow().bpKernel());
        assertFalse(catalog.find("cos").orElseThrow().bpKernel());
        assertTrue(catalog.withBackward().stream().anyMatch(o -> o.name().equals("cos")), "cos differentiates by"
                + " its doDiff alone");
    }

    /** What validate checks without ND4J is what the catalog recorded: an attribute typo is found at its place. */
    @Test
    void catalogOpsFindsAttributeTyposWithoutBuilding() {
        LoadedSpec spec = new SpecLoader().loadText("<t>", "t",
                "op: softmax\nattrs: {dimensoin: 1}\ninputs:\n  x: {shape: [2, 3]}\n").get(0);
        InvalidSpecException e = assertThrows(InvalidSpecException.class,
                () -> new CatalogOps(OpCatalog.nd4j()).validate(spec.spec()));
        assertTrue(e.getMessage().contains("unknown attribute 'dimensoin' for op softmax (did you mean"
                + " 'dimension'?)"), e.getMessage());
    }

    /**
     * The resource holds what a scan of ND4J finds now: the build regenerates it when ND4J or the generator's
     * code changes, and this fails if it did not (or if writing and reading lost anything).
     */
    @Test
    @Tag("slow") // asks ND4J for every op's descriptor and probes every doDiff
    void theBuildsCatalogIsWhatNd4jSaysNow() throws IOException {
        OpCatalog scanned = OpCatalogGenerator.scan();
        List<OpCatalog.Entry> fromBuild = OpCatalog.nd4j().entries();
        assertEquals(scanned.entries().size(), fromBuild.size());
        for (int i = 0; i < fromBuild.size(); i++) {
            assertEquals(scanned.entries().get(i), fromBuild.get(i));
        }
        try (InputStream in = OpCatalog.class.getResourceAsStream(OpCatalog.RESOURCE)) {
            assertEquals(OpCatalogGenerator.key(), OpCatalog.keyOf(in), "generated by this code, on this ND4J");
        }
    }
}
