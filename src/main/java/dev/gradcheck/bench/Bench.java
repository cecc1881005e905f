package dev.gradcheck.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gradcheck.backend.Backend;
import dev.gradcheck.backend.nd4j.InProcessBackend;
import dev.gradcheck.op.Differentiable;
import dev.gradcheck.op.ForwardingFunction;
import dev.gradcheck.op.FunctionCache;
import dev.gradcheck.op.Nd4jOpBuilder;
import dev.gradcheck.op.Nd4jOpBuilder.Executor;
import dev.gradcheck.op.catalog.OpCatalog;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.GradientResult;
import dev.gradcheck.spec.InputSpec;
import dev.gradcheck.spec.InputValues;
import dev.gradcheck.spec.InvalidSpecException;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.SpecLoader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.DynamicCustomOp;
import org.nd4j.linalg.factory.Nd4j;

/**
 * What a check costs, per executor ({@link Executor}): one forward (as finite differences call it: the inputs change
 * every call), one VJP (as full mode calls it: one-hot cotangents at fixed inputs), the bare native kernel, and
 * whole checks in full and fast mode (median of several after a warm-up, sanity checks included). {@link #serve}
 * answers the same measurements one at a time as JSON lines, for {@code bench/compare}, which interleaves them
 * with PyTorch's.
 */
public final class Bench {

    private final int repeats;
    private final PrintWriter out;
    private final Map<Executor, Nd4jOpBuilder> builders = new EnumMap<>(Executor.class);
    /** Whole checks go through the in-process engine, as --in-process and the library run them. */
    private final Map<Executor, Backend> checkers = new EnumMap<>(Executor.class);
    /** The same without keeping built functions: every check builds its function afresh (a first check's cost). */
    private final Map<Executor, Backend> freshCheckers = new EnumMap<>(Executor.class);

    public Bench(int repeats, PrintWriter out) {
        this.repeats = repeats;
        this.out = out;
        Nd4jOpBuilder builder = new Nd4jOpBuilder(OpCatalog.nd4j());
        for (Executor e : Executor.values()) {
            Nd4jOpBuilder b = builder.withExecutor(e);
            builders.put(e, b);
            FunctionCache cache = new FunctionCache(b::build, InProcessBackend.KEPT_FUNCTIONS);
            checkers.put(e, new InProcessBackend(Engine.CPU, cache::build, MemoryBudget.forThisJvm(), cache));
            freshCheckers.put(e, new InProcessBackend(Engine.CPU, b::build, MemoryBudget.forThisJvm()));
        }
    }

    /** The table: one row per case and executor. */
    public void run(List<Executor> executors) throws InvalidSpecException {
        out.printf("%-28s %-9s %6s %6s %11s %11s %11s %12s %12s%n", "CASE", "EXECUTOR", "IN", "OUT", "FORWARD", "VJP",
                "BARE EXEC", "FULL CHECK", "FAST CHECK");
        out.flush();
        for (BenchCase c : BenchCase.ALL) {
            for (Executor e : executors) {
                Costs costs = costs(c, e);
                double full = medianCheck(c, "full", e);
                double fast = medianCheck(c, "fast", e);
                out.printf("%-28s %-9s %6d %6d %8.1f us %8.1f us %8.1f us %9.1f ms %9.1f ms%s%n", c.label(),
                        e.name().toLowerCase(java.util.Locale.ROOT), costs.inElems(), costs.outElems(),
                        costs.forwardMicros(), costs.vjpMicros(), costs.bareMicros(), full, fast,
                        costs.sessionUse().isEmpty() ? "" : "  (session: " + costs.sessionUse() + ")");
                out.flush();
            }
        }
        out.println();
        out.println("FORWARD: one evaluation at inputs that change every call (2 per checked input element in full"
                + " mode); VJP: one backward pass with a one-hot cotangent at fixed inputs (1 per output element);"
                + " BARE EXEC: Nd4j.exec of the op alone; FULL/FAST CHECK: a whole check, sanity checks included,"
                + " median of " + repeats + " after a warm-up. direct = compiled ND4J calls, samediff = SameDiff's"
                + " session for every call (-Dgradcheck.executor=samediff). PyTorch beside it: bench/compare.");
        out.flush();
    }

    /**
     * The scaling table: for each of {@link BenchCase#SCALING}, a full check's forward evaluations and backward passes
     * and its time, compressed (on the default threads and on one) and dense ({@code compress: false}), median of
     * the repeats after a warm-up, on the direct executor.
     */
    public void scaling() throws InvalidSpecException {
        out.printf("%-24s %6s %6s %9s %9s %10s %10s %9s %9s %10s %7s%n", "CASE", "N", "M", "FORWARDS", "BACKWARDS",
                "FULL", "1 THREAD", "FORWARDS", "BACKWARDS", "DENSE", "DENSE/");
        out.printf("%-24s %6s %6s %9s %9s %10s %10s %9s %9s %10s %7s%n", "", "", "", "compressed", "", "", "",
                "dense", "", "1 THREAD", "FULL");
        out.flush();
        for (BenchCase c : BenchCase.SCALING) {
            OpSpec spec = parse(c.yaml());
            long n = spec.check().stream().mapToLong(name -> spec.input(name).length()).sum();
            OpSpec dense = spec.withOptions(spec.options().withCompress(false).withThreads(1));
            OpSpec one = spec.withOptions(spec.options().withThreads(1));
            long[] compressedCalls = calls(one);
            long[] denseCalls = calls(dense);
            double full = medianCheck(spec, checkers.get(Executor.DIRECT), c.label());
            double single = medianCheck(one, checkers.get(Executor.DIRECT), c.label());
            double denseMs = medianCheck(dense, checkers.get(Executor.DIRECT), c.label());
            long m = compressedCalls[2];
            out.printf("%-24s %6d %6d %9d %9d %8.3f s %8.3f s %9d %9d %8.3f s %6.1fx%n", c.label(), n, m,
                    compressedCalls[0], compressedCalls[1], full / 1e3, single / 1e3, denseCalls[0], denseCalls[1],
                    denseMs / 1e3, denseMs / full);
            out.flush();
        }
        out.println();
        out.println("N: input elements checked, M: output elements. FORWARDS / BACKWARDS: evaluations of the function"
                + " and backward passes one full check makes (sanity checks included: 3 forwards, 10 backward passes)."
                + " FULL: a whole full check, compressed (the default), on the default threads ("
                + dev.gradcheck.spec.CheckOptions.defaultThreads(1) + " here); 1 THREAD: the same on one thread;"
                + " DENSE: compress: false on one thread. Median of " + repeats + " after a warm-up, direct executor.");
        out.flush();
    }

    /**
     * Forward evaluations and backward passes of one check of the spec (what the check reports as its calls), and
     * the first output's length.
     */
    long[] calls(OpSpec spec) {
        long[] outputLength = new long[1];
        Backend counting = new InProcessBackend(Engine.CPU, (s, in) -> new OutputLength(
                builders.get(Executor.DIRECT).build(s, in), outputLength), MemoryBudget.forThisJvm());
        CheckResult r = counting.run(spec);
        if (r.gradients().stream().anyMatch(g -> !g.verdict().passed())) {
            throw new IllegalStateException(spec.op().value() + " did not pass: " + r);
        }
        return new long[] {r.calls().forward(), r.calls().backward(), outputLength[0]};
    }

    /** Notes the first output's length (copies for other threads note it in the same place). */
    private static final class OutputLength extends ForwardingFunction {
        private final long[] length;

        OutputLength(Differentiable f, long[] length) {
            super(f, copy -> new OutputLength(copy, length));
            this.length = length;
        }

        @Override
        public Map<String, INDArray> forward(Map<String, INDArray> inputs) {
            return noted(f.forward(inputs));
        }

        @Override
        public Map<String, INDArray> forwardTransient(Map<String, INDArray> inputs) {
            return noted(f.forwardTransient(inputs));
        }

        private Map<String, INDArray> noted(Map<String, INDArray> y) {
            length[0] = y.values().iterator().next().length();
            return y;
        }
    }

    /**
     * Answers JSON requests, one per line, until {@code quit} or the end of input: {@code cases};
     * {@code check} (case, mode, executor: one whole check, timed); {@code costs} (case, executor: per-call costs).
     */
    public void serve(BufferedReader in) throws IOException {
        ObjectMapper json = new ObjectMapper();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isBlank()) {
                continue;
            }
            ObjectNode reply = json.createObjectNode();
            try {
                JsonNode request = json.readTree(line);
                String cmd = request.path("cmd").asText();
                if (cmd.equals("quit")) {
                    return;
                }
                answer(cmd, request, reply);
            } catch (Exception e) {
                reply.removeAll();
                reply.put("error", e.toString());
            }
            out.println(json.writeValueAsString(reply));
            out.flush();
        }
    }

    private void answer(String cmd, JsonNode request, ObjectNode reply) throws InvalidSpecException {
        switch (cmd) {
            case "cases" -> {
                var list = reply.putArray("cases");
                for (BenchCase c : BenchCase.set(request.path("set").asText("six"))) {
                    OpSpec spec = parse(c.yaml());
                    list.addObject().put("id", c.id()).put("label", c.label()).put("n", spec.check().stream()
                            .mapToLong(name -> spec.input(name).length()).sum());
                }
            }
            case "check" -> {
                BenchCase c = bench(request);
                String mode = request.path("mode").asText("full");
                OpSpec spec = withOptions(parsed(c.yaml(mode)), request);
                Backend checker = (request.path("cache").asBoolean(true) ? checkers : freshCheckers)
                        .get(executor(request));
                long start = System.nanoTime();
                CheckResult r = checker.run(spec);
                reply.put("ms", (System.nanoTime() - start) / 1e6);
                reply.put("status", r.status().name().toLowerCase(java.util.Locale.ROOT));
                reply.put("evaluations", r.gradients().stream().mapToLong(GradientResult::evaluations).sum());
            }
            case "costs" -> {
                Costs costs = costs(bench(request), executor(request));
                reply.put("forward_us", costs.forwardMicros());
                reply.put("vjp_us", costs.vjpMicros());
                reply.put("bare_us", costs.bareMicros());
                reply.put("session_use", costs.sessionUse());
            }
            default -> throw new IllegalArgumentException("unknown request '" + cmd + "' (cases, check, costs, quit)");
        }
    }

    /** A check request's optional "compress" (true/false) and "threads" (N), as --no-compress and --threads set them. */
    private static OpSpec withOptions(OpSpec spec, JsonNode request) {
        dev.gradcheck.spec.CheckOptions o = spec.options();
        if (request.has("compress")) {
            o = o.withCompress(request.get("compress").asBoolean());
        }
        if (request.has("threads")) {
            o = o.withThreads(request.get("threads").asInt());
        }
        return spec.withOptions(o);
    }

    private static BenchCase bench(JsonNode request) {
        String id = request.path("case").asText();
        return BenchCase.byId(id).orElseThrow(() -> new IllegalArgumentException("no bench case '" + id + "'"));
    }

    private static Executor executor(JsonNode request) {
        return Executor.valueOf(request.path("executor").asText("direct").toUpperCase(java.util.Locale.ROOT));
    }

    private record Costs(long inElems, long outElems, double forwardMicros, double vjpMicros, double bareMicros,
                         String sessionUse) {}

    /** Per-call costs of the case's function as the executor builds it, called the way a full check calls it. */
    private Costs costs(BenchCase c, Executor executor) throws InvalidSpecException {
        OpSpec spec = parse(c.yaml());
        Map<String, INDArray> x = inputs(spec);
        Map<String, INDArray> moved = new LinkedHashMap<>();
        x.forEach((name, arr) -> moved.put(name, arr.dup()));
        INDArray first = moved.get(spec.check().get(0));
        first.putScalar(0, first.getDouble(0) + 1e-6);
        try (Differentiable f = builders.get(executor).build(spec, x)) {
            INDArray y = f.forward(x).get("0");
            boolean[] flip = {false};
            double forward = perCall(() -> {
                flip[0] = !flip[0];
                f.forward(flip[0] ? moved : x);
            });
            INDArray cotangent = Nd4j.zeros(y.dataType(), y.shape());
            Map<String, INDArray> ct = Map.of("0", cotangent);
            long[] row = {0};
            double vjp = perCall(() -> {
                long j = row[0]++ % cotangent.length();
                cotangent.putScalar(j, 1.0);
                f.vjp(x, ct, spec.check());
                cotangent.putScalar(j, 0.0);
            });
            double bare = perCall(() -> bareExec(c, x));
            long in = spec.check().stream().mapToLong(n -> spec.input(n).length()).sum();
            return new Costs(in, y.length(), forward, vjp, bare, Nd4jOpBuilder.sessionUse(f).orElse(""));
        }
    }

    /** The median of {@code repeats} whole checks after one warm-up (class loading, JIT, SameDiff's first gradient). */
    private double medianCheck(BenchCase c, String mode, Executor executor) throws InvalidSpecException {
        return medianCheck(parse(c.yaml(mode)), checkers.get(executor), c.label() + " in " + mode + " mode");
    }

    private double medianCheck(OpSpec spec, Backend checker, String what) {
        checker.run(spec);
        double[] millis = new double[repeats];
        for (int i = 0; i < repeats; i++) {
            long t = System.nanoTime();
            CheckResult r = checker.run(spec);
            millis[i] = (System.nanoTime() - t) / 1e6;
            if (r.gradients().stream().anyMatch(g -> !g.verdict().passed())) {
                throw new IllegalStateException(what + " did not pass: " + r);
            }
        }
        Arrays.sort(millis);
        return millis[millis.length / 2];
    }

    private static Map<String, INDArray> inputs(OpSpec spec) {
        Map<String, INDArray> in = new LinkedHashMap<>();
        for (InputSpec i : spec.inputs()) {
            in.put(i.name(), Nd4j.createFromArray(InputValues.generate(i, spec.seed())).reshape('c', i.shape()));
        }
        return in;
    }

    private static INDArray bareExec(BenchCase c, Map<String, INDArray> inputs) {
        DynamicCustomOp op = DynamicCustomOp.builder(c.nativeOp())
                .addInputs(inputs.values().toArray(new INDArray[0]))
                .addIntegerArguments(Arrays.stream(c.intArgs()).mapToInt(l -> (int) l).toArray())
                .build();
        return Nd4j.exec(op)[0];
    }

    /**
     * Microseconds per call: the median over 9 windows of about 25 ms each, after 100 ms of warm-up, so that a
     * moment of load from other processes moves a window, not the result.
     */
    private static double perCall(Runnable call) {
        long warm = System.nanoTime();
        for (int i = 0; i < 50 || System.nanoTime() - warm < 100_000_000L; i++) {
            call.run(); // JIT and first-call costs out of the way
        }
        double[] windows = new double[9];
        for (int w = 0; w < windows.length; w++) {
            int n = 0;
            long start = System.nanoTime();
            while (System.nanoTime() - start < 25_000_000L || n < 5) {
                call.run();
                n++;
            }
            windows[w] = (System.nanoTime() - start) / 1e3 / n;
        }
        Arrays.sort(windows);
        return windows[windows.length / 2];
    }

    /** {@code direct}, {@code samediff} or {@code both}, as {@code gradcheck bench --executor} takes them. */
    public static List<Executor> executors(String which) {
        return switch (which.toLowerCase(java.util.Locale.ROOT)) {
            case "both" -> List.of(Executor.DIRECT, Executor.SAMEDIFF);
            case "samediff" -> List.of(Executor.SAMEDIFF);
            case "direct" -> List.of(Executor.DIRECT);
            default -> throw new IllegalArgumentException("--executor: direct, samediff or both, not " + which);
        };
    }

    /** Each served case's spec, read once: outside the timed check, but CPU taken from the checks beside it. */
    private final Map<String, OpSpec> served = new java.util.HashMap<>();

    private OpSpec parsed(String yaml) throws InvalidSpecException {
        OpSpec spec = served.get(yaml);
        if (spec == null) {
            spec = parse(yaml);
            served.put(yaml, spec);
        }
        return spec;
    }

    static OpSpec parse(String yaml) throws InvalidSpecException {
        return new SpecLoader().loadText("<bench>", "bench", yaml).get(0).specOrThrow();
    }
}
