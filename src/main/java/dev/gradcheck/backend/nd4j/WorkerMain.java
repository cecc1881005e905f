package dev.gradcheck.backend.nd4j;

import dev.gradcheck.backend.Backend;
import dev.gradcheck.backend.CheckRequest;
import dev.gradcheck.backend.EngineOutput;
import dev.gradcheck.backend.EngineSupport;
import dev.gradcheck.backend.JvmSetup;
import dev.gradcheck.backend.TimeLimits;
import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.backend.WorkerProtocol;
import dev.gradcheck.backend.WorkerStdout;
import dev.gradcheck.op.Nd4jStartup;
import dev.gradcheck.op.plugin.PluginException;
import dev.gradcheck.op.plugin.PluginLoader;
import dev.gradcheck.op.plugin.PluginSet;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import dev.gradcheck.result.Status;
import dev.gradcheck.spec.LoadedSpec;
import dev.gradcheck.spec.MemoryBudget;
import dev.gradcheck.spec.OpSpec;
import dev.gradcheck.spec.Overrides;
import dev.gradcheck.spec.SpecLoader;
import java.io.BufferedReader;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A worker JVM: reads check requests on stdin, runs each on this JVM's ND4J backend, writes framed replies to
 * stdout. Everything else anyone prints goes to stderr, or (native printf) to stdout without the frame; the front
 * end keeps the last lines of both for the report of a crash.
 */
public final class WorkerMain {

    /**
     * What the front end told this worker at its start, as system properties ({@link WorkerOptions}): read here,
     * at the boundary, and passed on as parameters, never read again deeper down.
     */
    public record Setup(Engine engine, MemoryBudget budget, List<Path> plugins) {

        /** This worker's own (public: the test workers beside the front end's tests start from it too). */
        public static Setup fromSystemProperties() {
            return from(System::getProperty);
        }

        /** @param properties the worker's system properties, by name (null when not set) */
        public static Setup from(Function<String, String> properties) {
            String engine = Objects.requireNonNullElse(properties.apply(WorkerOptions.ENGINE_PROPERTY),
                    Engine.DEFAULT.specName());
            String maxMemory = properties.apply(WorkerOptions.MAX_MEMORY_PROPERTY);
            return new Setup(Engine.fromSpecName(engine).orElseThrow(
                    () -> new IllegalArgumentException("unknown engine " + engine)),
                    MemoryBudget.orDefault(maxMemory == null ? null : Long.parseLong(maxMemory)),
                    pluginPaths(Objects.requireNonNullElse(properties.apply(WorkerOptions.PLUGINS_PROPERTY), "")));
        }
    }

    /** Exit status of a worker whose ND4J loaded another engine than it was started for. */
    static final int EXIT_WRONG_ENGINE = 3;

    /** Exit status of a worker that retired after a VirtualMachineError, having replied. */
    static final int EXIT_RETIRED = 4;

    /** Exit status of a worker whose front end ended first: nobody is left to read a reply. */
    static final int EXIT_ORPHANED = 5;
    /**
     * The VirtualMachineErrors as the checker's error text names them (it catches every Throwable and keeps only
     * the text), outermost or as a cause.
     */
    private static final Pattern VM_ERROR = Pattern.compile(
            "(?:^|; caused by )(OutOfMemoryError|StackOverflowError|InternalError|UnknownError)\\b");

    /** The check a worker runs before it is ready: one small op, its full check. */
    private static final String WARM_UP = "name: warm-up\nop: tanh\ninputs: {x: {shape: [2]}}\n";

    private final Backend backend;
    private final WorkerStdout replies;
    /** The last files read, so that a file's documents are not read again for each; bounded for long runs. */
    private final Map<String, List<LoadedSpec>> files = new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<LoadedSpec>> eldest) {
            return size() > 64;
        }
    };

    /**
     * The specs of each text the front end sent, by file: what it read, parsed once here (the file on disk is not read
     * again, so one edited mid-run is checked as the front end validated it). As many as the run's files.
     */
    private final Map<String, List<LoadedSpec>> sentTexts = new java.util.HashMap<>();

    private WorkerMain(Backend backend, WorkerStdout replies) {
        this.backend = backend;
        this.replies = replies;
    }

    public static void main(String[] args) throws IOException, PluginException {
        ignoreInterrupts();
        Setup setup = Setup.fromSystemProperties();
        PluginSet plugins = PluginLoader.load(setup.plugins());
        serve(setup, () -> InProcessBackend.withPlugins(setup.engine(), plugins, setup.budget()), true);
    }

    /**
     * A terminal's Ctrl-C reaches every process of the foreground group, workers included. The front end decides
     * what it ends (it kills the workers of a run it interrupts), so that a shell's warm worker outlives a Ctrl-C
     * meant for another command.
     */
    private static void ignoreInterrupts() {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), sun.misc.SignalHandler.SIG_IGN);
        } catch (IllegalArgumentException e) {
            // no SIGINT on this platform, or the JVM reserved it (-Xrs): the default stays
        }
    }

    /**
     * Ends this worker when the process that started it ends. Its stdin closes then too, but the request loop reads
     * it only between checks, and a check may run for minutes with nobody to read its reply (a front end killed by a
     * signal it cannot catch leaves its workers to the init process).
     */
    private static void endWithFrontEnd() {
        ProcessHandle.current().parent().filter(front -> front.pid() != 1)
                .ifPresent(front -> front.onExit().thenRun(() -> Runtime.getRuntime().halt(EXIT_ORPHANED)));
    }

    private static List<Path> pluginPaths(String property) {
        return Arrays.stream(property.split(File.pathSeparator)).filter(p -> !p.isBlank()).map(Path::of).toList();
    }

    /**
     * Runs the request loop until stdin closes; test workers call this with a backend of their own.
     *
     * @param verifyEngine refuse to serve when ND4J loaded another engine than the one this worker was started
     *                     for; off only for a test worker that stands in for another backend
     */
    public static void serve(Setup setup, Supplier<Backend> backends, boolean verifyEngine) throws IOException {
        endWithFrontEnd();
        JvmSetup.quietLogging();
        JvmSetup.nativeAllocations();
        WorkerStdout replies = new WorkerStdout(new FileOutputStream(FileDescriptor.out));
        // SameDiff's chatter, ND4J's logs and any plugin's println go down stdout too, marked as Java's, in order with
        // libnd4j's printf()s: the front end gives each check the lines printed before its reply
        EngineOutput.install(replies::javaLine, replies::javaLine);
        Nd4jStartup.skipTensorflowImport();
        Nd4jStartup.readDescriptorsInBackground(); // while this thread starts ND4J's native backend
        String wrongEngine = verifyEngine ? wrongEngine(setup.engine()) : null; // loads ND4J's backend
        Nd4jStartup.backendLoaded();
        if (wrongEngine != null) {
            System.err.println(wrongEngine);
            System.err.flush();
            System.exit(EXIT_WRONG_ENGINE);
        }
        Backend backend = backends.get(); // a broken backend fails here, before the first request
        warmUp(backend);
        WorkerMain worker = new WorkerMain(backend, replies);
        worker.send(WorkerProtocol.READY);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isBlank()) {
                continue;
            }
            WorkerProtocol.Request request = WorkerProtocol.decode(line, WorkerProtocol.Request.class);
            OpSpec spec = worker.find(request);
            if (spec != null && request.overrides() != null) {
                spec = spec.with(request.overrides());
            }
            WorkerProtocol.Reply reply;
            if (request.kind() == WorkerProtocol.Request.Kind.SAMPLE) {
                reply = new WorkerProtocol.Reply(request.id(), null, spec == null ? null : backend.sample(CheckRequest.of(spec)));
            } else if (request.kind() == WorkerProtocol.Request.Kind.VALIDATE) {
                reply = new WorkerProtocol.Reply(request.id(), spec == null ? missing(request, backend)
                        : backend.validate(CheckRequest.of(spec)), null);
            } else {
                CheckResult result = spec == null ? missing(request, backend)
                        : backend.run(new CheckRequest(spec, Overrides.NONE, TimeLimits.DEFAULT, request.jacobians()));
                reply = new WorkerProtocol.Reply(request.id(), result, null, vmError(result));
            }
            worker.send(WorkerProtocol.encode(reply));
            if (reply.retiring() != null) {
                System.exit(EXIT_RETIRED); // a fresh worker takes the next check
            }
        }
        backend.close();
    }

    /**
     * ND4J does not fail when the CUDA backend cannot load (no driver, no CUDA runtime): it logs a warning and
     * falls back to the CPU. A "cuda" worker computing on the CPU would report CPU results as CUDA's, so it
     * refuses to serve instead, saying which engine ND4J loaded.
     */
    private static String wrongEngine(Engine requested) {
        String loaded = Nd4j.getBackend().getClass().getSimpleName();
        if (EngineSupport.of(requested).isLoaded(loaded)) {
            return null;
        }
        return "gradcheck worker: asked for the " + requested.specName() + " backend, but ND4J loaded " + loaded
                + (requested != Engine.DEFAULT ? " (the " + requested.name() + " backend did not load; its reason is in"
                        + " ND4J's warning above)" : "");
    }

    /**
     * A fresh JVM's first gradient costs about a second more than later ones (SameDiff's first graph, JIT). Paid
     * here, before the worker says it is ready, it does not count against the first real check's time limit, which
     * would otherwise time out a short limit on every replacement worker.
     */
    private static void warmUp(Backend backend) {
        try {
            LoadedSpec tiny = new SpecLoader().loadText("<warm-up>", "warm-up", WARM_UP).get(0);
            backend.run(tiny.spec());
        } catch (RuntimeException e) {
            System.err.println("gradcheck worker: warm-up check failed (the checks go on): " + e);
        }
    }

    /**
     * The VirtualMachineError a check ended with, or null. After one (out of memory above all) the JVM's state
     * is suspect: its heap may be fragmented past use, a native allocation half done, a static initializer
     * failed. The check keeps its error; the worker retires after replying.
     */
    static String vmError(CheckResult result) {
        if (result.message() == null
                || (result.status() != Status.ERROR && result.status() != Status.EXPECTED_ERROR)) {
            return null;
        }
        Matcher m = VM_ERROR.matcher(result.message());
        return m.find() ? m.group(1) : null;
    }

    /**
     * The requested spec, or null when the file no longer holds a valid one there. A request that carries its file's
     * text (as the front end read it, or a spec edited in the shell), now or with an earlier request, is read from
     * that text, never from the file.
     */
    private OpSpec find(WorkerProtocol.Request request) {
        List<LoadedSpec> specs;
        if (request.text() != null) {
            specs = new SpecLoader().loadText(request.file(), stem(request.file()), request.text());
            sentTexts.put(request.file(), specs);
        } else if (request.textKept()) {
            specs = sentTexts.getOrDefault(request.file(), List.of());
        } else {
            specs = files.computeIfAbsent(request.file(), f -> new SpecLoader().load(Path.of(f)));
        }
        for (LoadedSpec loaded : specs) {
            if (loaded.pos().toString().equals(request.location()) && loaded.isValid()) {
                return loaded.spec();
            }
        }
        return null;
    }

    /** What the file's unnamed specs are named after, as the front end named them. */
    private static String stem(String file) {
        try {
            return SpecLoader.stem(Path.of(file));
        } catch (java.nio.file.InvalidPathException e) {
            return "edited";
        }
    }

    /** The file changed between the front end's reading and ours. */
    private static CheckResult missing(WorkerProtocol.Request request, Backend backend) {
        return new CheckResult(request.location(), request.location(), "", backend.engine().specName(), "",
                Status.ERROR, "pass", null, "the worker found no valid spec at " + request.location()
                + " (was the file changed?)", List.of(), "", 0, 0);
    }

    /** One reply: one write of the whole line, so native output cannot split it. */
    private void send(String payload) {
        replies.reply(payload);
    }

}
