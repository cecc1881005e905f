package dev.gradcheck.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.nd4j.ir.OpDescriptorHolder;
import org.nd4j.ir.OpNamespace;

/** The build's binary copy of ND4J's op descriptors, and its hand-over to ND4J's holder in a fresh JVM. */
class OpDescriptorsTest {

    @Test
    void theBuildsCopyHoldsWhatNd4jParsesFromItsText() throws IOException {
        byte[] copy;
        try (InputStream in = OpDescriptors.class.getClassLoader().getResourceAsStream(OpDescriptors.RESOURCE)) {
            assertNotNull(in, "the build writes " + OpDescriptors.RESOURCE + " (process-classes)");
            copy = in.readAllBytes();
        }
        OpNamespace.OpDescriptorList list = OpDescriptors.parse(copy, OpDescriptors.ndText());
        assertEquals(OpDescriptorHolder.nd4jOpList(), list);
    }

    @Test
    void aCopyOfAnotherTextIsNotUsedAndADamagedOneFails() throws IOException {
        byte[] text = OpDescriptors.ndText();
        OpNamespace.OpDescriptorList list = OpDescriptorHolder.opList();
        byte[] copy = OpDescriptors.binaryCopy(text, list);
        assertEquals(list, OpDescriptors.parse(copy, text));

        byte[] edited = text.clone();
        edited[edited.length / 2] ^= 1; // same length, another text
        assertNull(OpDescriptors.parse(copy, edited));
        assertNull(OpDescriptors.parse(copy, Arrays.copyOf(text, text.length - 1)));
        assertThrows(IOException.class, () -> OpDescriptors.parse(Arrays.copyOf(copy, copy.length - 7), text));
        assertThrows(IOException.class, () -> OpDescriptors.parse(Arrays.copyOf(copy, 10), text)); // in the header
        assertNull(OpDescriptors.parse(new byte[16], text), "not a copy");
    }

    /** In a JVM of its own: the holder must not have started before {@link OpDescriptors#install}. */
    @Test
    void installHandsTheCopyToNd4jsHolder() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), Probe.class.getName()))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        assertEquals(true, p.waitFor(60, TimeUnit.SECONDS));
        assertEquals("installed true, again false, property null, same as ND4J's parse true", out);
    }

    /** Installs the copy, then compares ND4J's holder with ND4J's own parse of its text. */
    static final class Probe {
        public static void main(String[] args) throws IOException {
            boolean installed = OpDescriptors.install();
            boolean again = OpDescriptors.install();
            OpNamespace.OpDescriptorList own = OpDescriptorHolder.nd4jOpList();
            boolean same = own.equals(OpDescriptorHolder.opList()) && own.getOpListCount() > 100;
            for (OpNamespace.OpDescriptor d : own.getOpListList()) {
                same &= d.equals(OpDescriptorHolder.descriptorForOpName(d.getName()));
            }
            System.out.println("installed " + installed + ", again " + again + ", property "
                    + System.getProperty(OpDescriptors.PROPERTY) + ", same as ND4J's parse " + same);
        }
    }
}
