package dev.gradcheck.op;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.imports.converters.DifferentialFunctionClassHolder;
import org.nd4j.ir.OpDescriptorHolder;
import org.nd4j.ir.OpNamespace;
import org.nd4j.linalg.api.ops.CustomOpDescriptor;
import org.nd4j.linalg.factory.Nd4j;

/** The ND4J operators a spec can name: SameDiff's op classes, the native registry, and the op descriptors. */
public final class OpCatalog {

    private static volatile OpCatalog instance;

    private final Map<String, OpInfo> ops;

    private OpCatalog(Map<String, OpInfo> ops) {
        this.ops = ops;
    }

    public static OpCatalog nd4j() {
        if (instance == null) {
            synchronized (OpCatalog.class) {
                if (instance == null) {
                    instance = new OpCatalog(load());
                }
            }
        }
        return instance;
    }

    public Optional<OpInfo> find(String name) {
        return Optional.ofNullable(ops.get(name));
    }

    /** Every operator, sorted by name; includes registry-only names that no spec can build (checkable false). */
    public List<OpInfo> all() {
        List<OpInfo> list = new ArrayList<>(ops.values());
        list.sort(Comparator.comparing(OpInfo::name));
        return list;
    }

    public Set<String> checkableNames() {
        Set<String> names = new TreeSet<>();
        ops.values().stream().filter(OpInfo::checkable).forEach(o -> names.add(o.name()));
        return names;
    }

    static DifferentialFunction prototype(String name) {
        return DifferentialFunctionClassHolder.getInstance().getInstance(name);
    }

    private static Map<String, OpInfo> load() {
        Map<String, CustomOpDescriptor> registry = Nd4j.getExecutioner().getCustomOperations();
        Set<String> names = new TreeSet<>(registry.keySet());
        DifferentialFunctionClassHolder holder = DifferentialFunctionClassHolder.getInstance();
        for (String n : holder.opNames()) {
            if (n != null && holder.getInstance(n) != null) {
                names.add(n);
            }
        }
        Map<String, OpInfo> ops = new TreeMap<>();
        for (String name : names) {
            if (name.endsWith("_bp") && names.contains(name.substring(0, name.length() - 3))) {
                continue; // a backward kernel is a property of its forward op, not an op to check
            }
            DifferentialFunction proto = holder.getInstance(name);
            String cls = proto == null ? null : proto.getClass().getName();
            ops.put(name, new OpInfo(name, "nd4j", cls, registry.containsKey(name + "_bp"), describe(name)));
        }
        return ops;
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
}
