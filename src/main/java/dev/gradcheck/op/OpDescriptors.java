package dev.gradcheck.op;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;
import org.nd4j.common.config.ND4JClassLoading;
import org.nd4j.ir.OpDescriptorHolder;
import org.nd4j.ir.OpNamespace;

/**
 * ND4J's op descriptors (each op's arguments by name: {@code nd4j-op-def.pbtxt}, 336 kB of protobuf text), which
 * SameDiff reads whenever it copies a graph (a gradient function's ops: {@code DynamicCustomOp.propertiesForFunction}),
 * read from a binary copy the build writes beside gradcheck's classes. ND4J parses its text when
 * {@link OpDescriptorHolder} is first used, about 0.3 s of CPU in a fresh JVM, most of a cold run's start-up
 * reader; the same list in protobuf's binary form (66 kB) parses in a tenth of that.
 *
 * <p>The copy holds the length and CRC-32 of the text it was made from, and is used only where they match the text
 * ND4J would read now: a copy that is missing, damaged or made from another ND4J leaves ND4J to parse its text, as
 * does a run that names descriptors of its own ({@code -Dsamediff.import.nd4jdescriptors}). Using it needs ND4J's
 * holder to start from an empty text (a resource of ours, named through the same property for that moment), so
 * {@link #install} must run before anything else in the JVM uses the holder: {@link Nd4jStartup} calls it before
 * any check of a worker or of a small run's shared JVM can start.
 */
public final class OpDescriptors {

    /** The binary copy, on gradcheck's class path; written by {@link #main} in the build. */
    static final String RESOURCE = "dev/gradcheck/op/nd4j-op-def.bin";
    /** An empty descriptor text, which ND4J's holder parses instead of its own while {@link #install} runs. */
    static final String EMPTY_TEXT = "dev/gradcheck/op/no-op-descriptors.pbtxt";
    /** ND4J's own descriptor text, as {@link OpDescriptorHolder} finds it by default. */
    static final String TEXT = "nd4j-op-def.pbtxt";
    /** The system property ND4J's holder reads the text's resource name from. */
    static final String PROPERTY = "samediff.import.nd4jdescriptors";
    private static final int MAGIC = 0x4743_4F44; // "GCOD"

    private static boolean installed;

    private OpDescriptors() {}

    /**
     * {@code java dev.gradcheck.op.OpDescriptors FILE}: writes the binary copy of ND4J's descriptors (ND4J's own
     * parse of its text) to FILE, unless FILE already holds the same bytes.
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: OpDescriptors FILE");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        byte[] bytes = binaryCopy(ndText(), OpDescriptorHolder.opList());
        if (Files.isRegularFile(file) && Arrays.equals(Files.readAllBytes(file), bytes)) {
            return;
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, bytes);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** The copy's bytes: a header naming the text (its length and CRC-32), then the list in protobuf's binary form. */
    static byte[] binaryCopy(byte[] text, OpNamespace.OpDescriptorList list) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeInt(text.length);
            out.writeLong(crc(text));
            out.write(list.toByteArray());
        }
        return bytes.toByteArray();
    }

    /**
     * Hands ND4J's holder the descriptors from the binary copy, where the copy matches ND4J's text and the holder
     * has not started yet. Once per JVM; later calls return at once.
     *
     * @return whether the copy was used (else ND4J parses its text when the holder is first used, as without this)
     */
    public static synchronized boolean install() {
        if (installed) {
            return false;
        }
        installed = true;
        try {
            OpNamespace.OpDescriptorList list = System.getProperty(PROPERTY) == null ? readCopy() : null;
            return list != null && handOver(list);
        } catch (IOException | RuntimeException | LinkageError | ReflectiveOperationException e) {
            return false; // ND4J reads its own text when first asked
        }
    }

    /** @return the copy's list, or null where there is none or it was made from another text than ND4J's now */
    static OpNamespace.OpDescriptorList readCopy() throws IOException {
        byte[] copy;
        try (InputStream in = OpDescriptors.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return null;
            }
            copy = in.readAllBytes();
        }
        return parse(copy, ndText());
    }

    /**
     * @return the list a copy holds, or null where it was made from another text
     * @throws IOException where the copy is cut short or its list damaged
     */
    static OpNamespace.OpDescriptorList parse(byte[] copy, byte[] text) throws IOException {
        DataInputStream header = new DataInputStream(new ByteArrayInputStream(copy));
        if (header.readInt() != MAGIC || header.readInt() != text.length || header.readLong() != crc(text)) {
            return null;
        }
        int start = Integer.BYTES * 2 + Long.BYTES;
        return OpNamespace.OpDescriptorList.parseFrom(java.nio.ByteBuffer.wrap(copy, start, copy.length - start));
    }

    /**
     * Starts ND4J's holder on the empty text, then gives it the list. Nothing is changed where the holder cannot
     * be reached (its map's field is private) or our empty text is not where ND4J's class loader looks.
     */
    private static boolean handOver(OpNamespace.OpDescriptorList list) throws ReflectiveOperationException {
        ClassLoader nd4j = ND4JClassLoading.getNd4jClassloader();
        if (nd4j.getResource(EMPTY_TEXT) == null) {
            return false;
        }
        Class<?> holder = Class.forName(OpDescriptorHolder.class.getName(), false, nd4j);
        Field byName = holder.getDeclaredField("opDescriptorByName");
        byName.setAccessible(true);
        System.setProperty(PROPERTY, "/" + EMPTY_TEXT);
        try {
            Class.forName(holder.getName(), true, nd4j);
        } finally {
            System.clearProperty(PROPERTY);
        }
        if (OpDescriptorHolder.INSTANCE.getOpListCount() != 0) {
            return false; // started before: it holds ND4J's own parse
        }
        Map<String, OpNamespace.OpDescriptor> map = new LinkedHashMap<>();
        for (OpNamespace.OpDescriptor d : list.getOpListList()) {
            map.put(d.getName(), d);
        }
        byName.set(null, map);
        OpDescriptorHolder.INSTANCE = list;
        return true;
    }

    /** ND4J's descriptor text, as its holder would read it. */
    static byte[] ndText() throws IOException {
        try (InputStream in = ND4JClassLoading.getNd4jClassloader().getResourceAsStream(TEXT)) {
            if (in == null) {
                throw new IOException("no " + TEXT + " on ND4J's class path");
            }
            return in.readAllBytes();
        }
    }

    private static long crc(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return crc.getValue();
    }
}
