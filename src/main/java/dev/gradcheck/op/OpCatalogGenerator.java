package dev.gradcheck.op;

import dev.gradcheck.op.catalog.ArgInfo;
import dev.gradcheck.op.catalog.OpBinding;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.op.catalog.OpInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.imports.converters.DifferentialFunctionClassHolder;
import org.nd4j.ir.OpDescriptorHolder;
import org.nd4j.ir.OpNamespace;
import org.nd4j.linalg.api.ops.CustomOpDescriptor;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Asks ND4J which operators it has and writes gradcheck's {@link OpCatalog} resource. The build runs it once, in
 * Maven's process-classes phase ({@code pom.xml}): ND4J's native registry, SameDiff's class registry and the op
 * descriptors take seconds to start, which list-ops, coverage and validate then never pay.
 *
 * <p>{@code java dev.gradcheck.op.OpCatalogGenerator FILE} writes FILE unless it already holds a catalog generated
 * from the same ND4J version by the same generator code (its key), so an incremental build skips ND4J's start.
 */
public final class OpCatalogGenerator {

    /** The classes whose code decides the catalog's content: when one changes, the catalog is generated anew. */
    private static final List<Class<?>> CODE = List.of(OpCatalogGenerator.class, OpCatalog.class, OpInfo.class,
            ArgInfo.class, ArgInfo.Kind.class, OpBinding.class, Nd4jOpBuilder.class);

    private OpCatalogGenerator() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: OpCatalogGenerator FILE");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        String key = key();
        if (Files.isRegularFile(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                if (key.equals(OpCatalog.keyOf(in))) {
                    System.err.println("gradcheck: op catalog up to date: " + file);
                    return;
                }
            }
        }
        long start = System.nanoTime();
        OpCatalog catalog = scan();
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (OutputStream out = Files.newOutputStream(tmp)) {
            catalog.write(out, key);
        }
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        System.err.printf("gradcheck: op catalog of %d ND4J ops written to %s (%.1f s)%n", catalog.all().size(), file,
                (System.nanoTime() - start) / 1e9);
        System.exit(0); // ND4J's non-daemon threads would keep the build's JVM waiting
    }

    /** What the catalog is generated from: the ND4J version and the bytes of the code that builds it. */
    public static String key() throws IOException {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Class<?> c : CODE) {
                String resource = c.getName().substring(c.getPackageName().length() + 1) + ".class";
                try (InputStream in = c.getResourceAsStream(resource)) {
                    if (in == null) {
                        throw new IOException("cannot read " + resource);
                    }
                    sha.update(in.readAllBytes());
                }
            }
            return "nd4j " + nd4jVersion() + "; code " + HexFormat.of().formatHex(sha.digest(), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String nd4jVersion() {
        String v = Nd4j.class.getPackage() == null ? null : Nd4j.class.getPackage().getImplementationVersion();
        if (v != null) {
            return v;
        }
        // nd4j-api's jar names its version in its path (…/nd4j-api-1.0.0-M2.1.jar) where its manifest does not
        String where = String.valueOf(Nd4j.class.getProtectionDomain().getCodeSource().getLocation());
        return where.substring(where.lastIndexOf('/') + 1);
    }

    /** ND4J's operators now: its native registry, SameDiff's op classes, the op descriptors (seconds). */
    public static OpCatalog scan() {
        Map<String, CustomOpDescriptor> registry = Nd4j.getExecutioner().getCustomOperations();
        Set<String> names = new TreeSet<>(registry.keySet());
        DifferentialFunctionClassHolder holder = DifferentialFunctionClassHolder.getInstance();
        for (String n : holder.opNames()) {
            if (n != null && holder.getInstance(n) != null) {
                names.add(n);
            }
        }
        List<OpCatalog.Entry> entries = new ArrayList<>();
        for (String name : names) {
            if (name.endsWith("_bp") && names.contains(name.substring(0, name.length() - 3))) {
                continue; // a backward kernel is a property of its forward op, not an op to check
            }
            DifferentialFunction proto = holder.getInstance(name);
            String cls = proto == null ? null : proto.getClass().getName();
            List<ArgInfo> args = describe(name);
            OpInfo info = new OpInfo(name, "nd4j", cls, registry.containsKey(name + "_bp"), args);
            boolean backward = info.bpKernel() || (proto != null && sameDiffDifferentiates(proto));
            OpBinding binding = proto == null ? null
                    : new OpBinding(Nd4jOpBuilder.bindableArgs(proto, args), Nd4jOpBuilder.propertyNames(proto));
            entries.add(new OpCatalog.Entry(info, backward, binding));
        }
        return new OpCatalog(entries);
    }

    /** Named arguments from ND4J's op descriptors; ops without a descriptor have none. */
    static List<ArgInfo> describe(String name) {
        OpNamespace.OpDescriptor d;
        try {
            d = OpDescriptorHolder.descriptorForOpName(name);
        } catch (RuntimeException e) {
            return List.of();
        }
        if (d == null) {
            return List.of();
        }
        List<ArgInfo> args = new ArrayList<>();
        for (OpNamespace.ArgDescriptor a : d.getArgDescriptorList()) {
            ArgInfo.Kind kind = switch (a.getArgType()) {
                case INT32, INT64 -> ArgInfo.Kind.INT;
                case FLOAT, DOUBLE -> ArgInfo.Kind.FLOAT;
                case BOOL -> ArgInfo.Kind.BOOL;
                case DATA_TYPE -> ArgInfo.Kind.DTYPE;
                case INPUT_TENSOR -> ArgInfo.Kind.INPUT;
                default -> null; // outputs and unused kinds are not arguments a spec sets
            };
            if (kind != null && !a.getName().equals("inPlace")) {
                args.add(new ArgInfo(a.getName(), kind, a.getArgIndex()));
            }
        }
        if (name.equals("layer_norm")) {
            // ND4J's descriptor names bool 0 noBias, but the kernel and LayerNorm read bool 0 as channelsFirst and
            // bool 1 as noBias (docs/nd4j-findings.md): describe what the op really reads.
            args.removeIf(a -> a.kind() == ArgInfo.Kind.BOOL);
            args.add(new ArgInfo("channelsFirst", ArgInfo.Kind.BOOL, 0));
            args.add(new ArgInfo("noBias", ArgInfo.Kind.BOOL, 1));
        }
        if (name.equals("im2col") && args.stream().noneMatch(a -> a.kind() == ArgInfo.Kind.INT && a.index() == 8)) {
            // the kernel reads int argument 8 as isSameMode, which the descriptor leaves out (docs/nd4j-findings.md)
            args.add(new ArgInfo("isSameMode", ArgInfo.Kind.INT, 8));
        }
        args.sort(Comparator.comparing(ArgInfo::kind).thenComparingInt(ArgInfo::index));
        return List.copyOf(args);
    }

    /**
     * Whether the op's SameDiff class has a working {@code doDiff}. This cannot be read off the class: half of
     * ND4J's ops declare one that only throws {@code UnsupportedOperationException} or returns null, and
     * {@code DynamicCustomOp}'s inherited one throws too. So {@code doDiff} is called on a fresh, unconfigured
     * instance with no gradients: an op without a backward throws {@code UnsupportedOperationException} (or
     * returns null, or an empty list) before it looks at anything; a real backward starts building the graph and
     * fails some other way (there is no graph), which counts as "SameDiff differentiates it".
     */
    static boolean sameDiffDifferentiates(DifferentialFunction proto) {
        DifferentialFunction fresh;
        try {
            var ctor = proto.getClass().getDeclaredConstructor();
            ctor.setAccessible(true);
            fresh = ctor.newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
        try {
            var grads = fresh.doDiff(new ArrayList<>());
            return grads != null && !grads.isEmpty();
        } catch (UnsupportedOperationException e) {
            return false;
        } catch (RuntimeException | LinkageError e) {
            return true; // it got past the "not supported" stage and tripped over the missing graph
        }
    }
}
