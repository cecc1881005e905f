package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gradcheck.backend.Backend;
import dev.gradcheck.backend.CheckRequest;
import dev.gradcheck.backend.WorkerBackend;
import dev.gradcheck.backend.WorkerOptions;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Engine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The promise of docs/guarantees.md under hostile input, held by property-based fuzzing: shipped specs damaged in
 * every way {@link HostileSpecs} knows, each put in a batch between two good specs, and run through
 * {@code validate} (every try) and {@code check} (one try in {@value #CHECK_EVERY}), the commands in this JVM and
 * their ops in one worker JVM kept for every try (a fresh one after a crash: ND4J's gather segfaults on an index
 * out of range, which must cost one spec, not the batch). For every file: no internal error, no stack trace, every
 * problem as {@code file:line:col: message} inside the file, the summary printed, and both good specs still
 * reported as good.
 *
 * <p>The seed is fixed and the number of tries is jqwik's default, set in junit-platform.properties so that the
 * suite spends about 30 s here. A longer run, locally:
 * {@code mvn -o test -Dtest=HostileInputFuzzTest -Djqwik.tries.default=100000}; a failure prints the shrunk recipe
 * of the file (base spec, damages), which is then worth a regression example in {@link HostileInputTest}.
 */
@Tag("fuzz")
@Tag("slow") // a worker JVM, and about 15-30 s of tries
class HostileInputFuzzTest {

    /** One try in this many also goes through check, which costs a gradient check per spec. */
    static final int CHECK_EVERY = 12;

    private static final String GOOD_FIRST = """
            name: good-first
            op: tanh
            inputs:
              x: {shape: [2, 3]}
            """;
    /** A good graph spec: validate and check run it on the engine, as every hostile graph. */
    static final String GOOD_LAST = """
            name: good-last
            graph:
              - {op: matmul, in: [x, w], out: h}
              - {op: tanh, in: [h], out: y}
            inputs:
              x: {shape: [2, 3]}
              w: {shape: [3, 2]}
            """;
    private static final Pattern SUMMARY = Pattern.compile("(\\d+) specs?: (\\d+) valid, (\\d+) invalid");
    /** gradcheck's own failures, whatever the input: never in any output. */
    private static final List<String> OWN_FAILURES = List.of("internal error", "cannot be validated");
    /**
     * Exceptions that are gradcheck's bugs when they reach a problem line; an operator's error (status error,
     * crashed) may carry ND4J's own, which is what such a check reports.
     */
    private static final List<String> OWN_BUGS = List.of("ArithmeticException", "NullPointerException",
            "ClassCastException", "NegativeArraySizeException", "OutOfMemoryError", "StackOverflowError",
            "ArrayIndexOutOfBoundsException", "StringIndexOutOfBoundsException", "NumberFormatException",
            "ConcurrentModificationException");

    /** The ops' worker JVM, shared by every try; a command closing its engine must not stop it. */
    private static final WorkerBackend WORKER = new WorkerBackend(WorkerOptions.cpu().withMaxMemory(256L << 20));
    private static final Backend SHARED = new Backend() {
        @Override
        public Engine engine() {
            return WORKER.engine();
        }

        @Override
        public CheckResult run(CheckRequest request) {
            return WORKER.run(request);
        }

        @Override
        public CheckResult validate(CheckRequest request) {
            return WORKER.validate(request);
        }
    };

    private static final ExecutorService RUNNER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fuzz-runner");
        t.setDaemon(true);
        return t;
    });

    @Provide
    Arbitrary<HostileSpecs.Hostile> hostile() {
        return HostileSpecs.files();
    }

    @Provide
    Arbitrary<Integer> share() {
        return Arbitraries.integers().between(0, CHECK_EVERY - 1);
    }

    @Property(seed = "19", shrinking = ShrinkingMode.BOUNDED, edgeCases = EdgeCasesMode.NONE)
    void noBatchIsLostToAHostileSpec(@ForAll("hostile") HostileSpecs.Hostile hostile, @ForAll("share") int share)
            throws Exception {
        Path dir = Files.createTempDirectory("gradcheck-fuzz");
        try {
            Files.writeString(dir.resolve("a-good.yaml"), GOOD_FIRST);
            Path file = dir.resolve("m-hostile.yaml");
            Files.write(file, hostile.bytes());
            Files.writeString(dir.resolve("z-good.yaml"), GOOD_LAST);
            assertValidateKeepsTheBatch(dir, file, hostile.bytes());
            if (share == 0) {
                assertCheckKeepsTheBatch(dir, file, hostile.bytes());
            }
        } finally {
            deleteTree(dir);
        }
    }

    /** validate: a line per problem, each at a place in the hostile file; the good specs counted valid. */
    static void assertValidateKeepsTheBatch(Path dir, Path file, byte[] bytes) throws Exception {
        Cli r = inTime(() -> Cli.run(() -> SHARED, "validate", "--max-memory", "256m", dir.toString()));
        String all = r.out() + r.err();
        assertTrue(r.exit() == 0 || r.exit() == 2, "exit " + r.exit() + ":\n" + all);
        assertNoOwnBug(all, true);
        List<String> lines = r.out().lines().toList();
        assertFalse(lines.isEmpty(), "no output at all; stderr:\n" + r.err());
        Matcher summary = SUMMARY.matcher(lines.get(lines.size() - 1));
        assertTrue(summary.matches(), "no summary line:\n" + all);
        int total = Integer.parseInt(summary.group(1));
        int valid = Integer.parseInt(summary.group(2));
        assertEquals(total, valid + Integer.parseInt(summary.group(3)), summary.group());
        assertTrue(valid >= 2, "a good spec was lost or called invalid:\n" + all);
        for (String line : lines.subList(0, lines.size() - 1)) {
            assertPositionInFile(line, file, bytes, all);
        }
        assertEquals(r.exit() == 0, valid == total, "exit code and summary disagree:\n" + all);
    }

    /** check: a valid JSON report holding both good specs as passed; every invalid one located in the file. */
    static void assertCheckKeepsTheBatch(Path dir, Path file, byte[] bytes) throws Exception {
        Cli r = inTime(() -> Cli.run(() -> SHARED, "check", "--format", "json", "--max-memory", "256m",
                "--max-elements", "16", "--timeout", "60", dir.toString()));
        String all = r.out() + r.err();
        assertTrue(r.exit() >= 0 && r.exit() <= 3, "exit " + r.exit() + ":\n" + all);
        assertNoOwnBug(r.err(), true);
        assertNoOwnBug(r.out(), false);
        JsonNode report = new ObjectMapper().readTree(r.out());
        assertEquals(r.exit(), report.at("/summary/exit_code").asInt(), all);
        List<String> passed = new ArrayList<>();
        for (JsonNode c : report.get("checks")) {
            String status = c.get("status").asText();
            if (c.get("name").asText().startsWith("good-") && c.get("location").asText().contains("-good.yaml")) {
                assertEquals("passed", status, "a good spec did not pass:\n" + c.toPrettyString());
                passed.add(c.get("name").asText());
            } else if (status.equals("invalid")) {
                assertNoOwnBug(c.get("message").asText(), true);
                for (String line : c.get("message").asText().split("\n")) {
                    assertPositionInFile(line, file, bytes, all);
                }
            }
        }
        assertEquals(List.of("good-first", "good-last"), passed, all);
    }

    /**
     * No stack trace, no failure of gradcheck's own; with {@code exceptions}, no exception that only a bug of
     * gradcheck's would throw either. Quoted text is left out: a shipped spec's reason may name an exception, and
     * messages quote the spec.
     */
    private static void assertNoOwnBug(String output, boolean exceptions) {
        assertFalse(output.contains("\tat ") || output.contains("Exception in thread"), "a stack trace:\n" + output);
        String unquoted = output.replaceAll("'[^'\n]*'", "''");
        for (String bug : exceptions ? java.util.stream.Stream.concat(OWN_FAILURES.stream(), OWN_BUGS.stream())
                .toList() : OWN_FAILURES) {
            assertFalse(unquoted.contains(bug), "'" + bug + "' reached the user:\n" + output);
        }
    }

    private static final Pattern POSITION = Pattern.compile("(.+):(\\d+):(\\d+): \\S.*");

    /** {@code file:line:col: message}, naming the hostile file, at a line it has (or one past its end). */
    private static void assertPositionInFile(String line, Path file, byte[] bytes, String all) {
        Matcher m = POSITION.matcher(line);
        assertTrue(m.matches() && m.group(1).equals(file.toString()), "not file:line:col: message: '" + line
                + "'\n" + all);
        long lines = new String(bytes, StandardCharsets.UTF_8).lines().count();
        int at = Integer.parseInt(m.group(2));
        assertTrue(at >= 1 && at <= lines + 1 && Integer.parseInt(m.group(3)) >= 1, "position outside the file ("
                + lines + " lines): " + line);
    }

    /** A command that hangs fails the try instead of the whole suite. */
    private static Cli inTime(java.util.concurrent.Callable<Cli> command) throws Exception {
        Future<Cli> f = RUNNER.submit(command);
        try {
            return f.get(300, TimeUnit.SECONDS); // the worker's own limit is 60 s a spec
        } catch (TimeoutException e) {
            f.cancel(true);
            return fail("the command hung for 300 s");
        } catch (ExecutionException e) {
            throw new AssertionError("the command threw", e.getCause());
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @AfterContainer
    static void stop() {
        RUNNER.shutdownNow();
        WORKER.close();
    }
}
