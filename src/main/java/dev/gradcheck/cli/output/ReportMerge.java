package dev.gradcheck.cli.output;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gradcheck.cli.options.ExitCode;
import dev.gradcheck.report.JsonRenderer;
import dev.gradcheck.report.JsonReportReader;
import dev.gradcheck.report.RunDetails;
import dev.gradcheck.result.CheckResult;
import dev.gradcheck.result.Status;
import dev.gradcheck.result.Summary;
import dev.gradcheck.run.Shard;
import dev.gradcheck.spec.Printable;
import dev.gradcheck.spec.RegularFiles;
import dev.gradcheck.spec.SpecIds;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The reading and joining behind {@code gradcheck merge}: several JSON reports become one list of checks, in the
 * order one run over the same paths would give (by spec file, then position in it), each keeping its id and shard,
 * with one summary whose exit code is the highest any report or check asks for.
 */
public final class ReportMerge {

    /**
     * @param refused   nothing can be merged (mixed schema versions, conflicting shards): exit 2, no report
     * @param problems  what went wrong, one line each (a missing shard, an unreadable file, a check twice)
     * @param durations each spec's time, by id, for --write-durations
     */
    public record Merged(List<CheckResult> results, Summary summary, RunDetails details, boolean interrupted, int exitCode,
                         List<String> problems, boolean refused, Map<String, Double> durations) {

        static Merged refusal(List<String> problems) {
            return new Merged(List.of(), Summary.of(List.of(), 0, ExitCode.USAGE.code()), RunDetails.NONE, false,
                    ExitCode.USAGE.code(), problems, true, Map.of());
        }
    }

    private record Input(Path file, boolean named) {}

    private record Loaded(Path file, JsonNode root, int version) {}

    private ReportMerge() {}

    public static Merged read(List<Path> given) {
        List<String> problems = new ArrayList<>();
        List<Loaded> loaded = new ArrayList<>();
        for (Input input : expand(given, problems)) {
            try (Reader in = Files.newBufferedReader(input.file(), StandardCharsets.UTF_8)) {
                JsonNode root = JsonReportReader.tree(in);
                loaded.add(new Loaded(input.file(), root, JsonReportReader.schemaVersion(root)));
            } catch (IOException e) {
                problems.add(input.file() + ": cannot read: " + reason(e));
            } catch (JsonReportReader.NotAReportException e) {
                if (input.named()) {
                    problems.add(input.file() + ": " + e.getMessage());
                } // a directory may hold other JSON files (a durations file): not a problem
            } catch (JsonReportReader.FormatException e) {
                // damaged JSON may well be a report (cut short, two in one file): never passed over in silence
                problems.add(input.file() + ": " + Printable.of(e.getMessage()));
            }
        }
        String versions = loaded.stream().map(l -> l.file() + " (schema_version " + l.version() + ")")
                .collect(Collectors.joining(", "));
        if (loaded.stream().map(Loaded::version).distinct().count() > 1) {
            problems.add("reports of different schema versions cannot be merged: " + versions
                    + "; merge reports written by the same gradcheck version");
            return Merged.refusal(problems);
        }
        if (!loaded.isEmpty() && loaded.get(0).version() != JsonRenderer.SCHEMA_VERSION) {
            problems.add("cannot merge " + versions + ": this gradcheck reads schema_version "
                    + JsonRenderer.SCHEMA_VERSION + "; merge with the gradcheck that wrote them");
            return Merged.refusal(problems);
        }
        List<JsonReportReader.Read> reads = readChecks(loaded, problems);
        if (reads.isEmpty()) {
            problems.add("no report to merge" + (given.isEmpty() ? "" : " in " + given));
            return Merged.refusal(problems);
        }
        if (!checkShards(reads, problems)) {
            return Merged.refusal(problems);
        }
        return join(reads, problems);
    }

    /**
     * The checks of each report that can be read. A report's {@code exit_code} can rightly be above what its checks
     * ask for (a signal's 130 or 143, 2 for a path not found), so it cannot be recomputed from them and becomes the
     * merge's own when highest: one that gradcheck never exits with (99) is therefore a damaged report, not a code
     * for CI to guess at.
     */
    private static List<JsonReportReader.Read> readChecks(List<Loaded> loaded, List<String> problems) {
        List<JsonReportReader.Read> reads = new ArrayList<>();
        for (Loaded l : loaded) {
            try {
                JsonReportReader.Read read = JsonReportReader.read(l.root(), l.file().toString());
                int code = read.source().exitCode();
                if (ExitCode.known(code)) {
                    reads.add(read);
                } else {
                    problems.add(l.file() + ": summary.exit_code: " + code + " is not an exit code of gradcheck ("
                            + ExitCode.knownList() + "); not merged");
                }
            } catch (JsonReportReader.FormatException e) {
                problems.add(l.file() + ": " + Printable.of(e.getMessage()));
            }
        }
        return reads;
    }

    /** Shards must agree on N and appear once each; a missing one is a problem, not a refusal. */
    private static boolean checkShards(List<JsonReportReader.Read> reads, List<String> problems) {
        Map<Shard, String> seen = new TreeMap<>(Comparator.comparingInt(Shard::index));
        Integer total = null;
        for (JsonReportReader.Read r : reads) {
            String label = r.source().shard();
            if (label == null) {
                continue;
            }
            Shard shard;
            try {
                shard = Shard.parse(label);
            } catch (IllegalArgumentException e) {
                problems.add(r.source().file() + ": run.shard: " + e.getMessage());
                return false;
            }
            if (total != null && shard.total() != total) {
                problems.add("shards of different totals cannot be merged: " + reads.stream()
                        .filter(x -> x.source().shard() != null)
                        .map(x -> x.source().file() + " (" + x.source().shard() + ")")
                        .collect(Collectors.joining(", ")));
                return false;
            }
            total = shard.total();
            String earlier = seen.putIfAbsent(shard, r.source().file());
            if (earlier != null) {
                problems.add("shard " + shard + " appears twice: " + earlier + " and " + r.source().file());
                return false;
            }
        }
        if (total != null) {
            reportMissing(seen, total, problems);
        }
        return true;
    }

    /** The shards of {@code total} not seen, on one line however many: runs of missing shards as ranges. */
    private static void reportMissing(Map<Shard, String> seen, int total, List<String> problems) {
        List<Integer> missing = new ArrayList<>();
        for (int k = 1; k <= total; k++) {
            if (!seen.containsKey(new Shard(k, total))) {
                missing.add(k);
            }
        }
        if (!missing.isEmpty()) {
            String which = missing.size() == 1 ? "shard " + missing.get(0) + "/" + total + " is"
                    : "shards " + ranges(missing) + " of " + total + " are";
            problems.add(which + " missing (given: " + seen.keySet().stream().map(Shard::toString)
                    .collect(Collectors.joining(", ")) + "): " + (missing.size() == 1 ? "its" : "their")
                    + " checks are not in the merged report");
        }
    }

    /** {@code 2, 4-7, 9}: ascending numbers, each run of consecutive ones as a range. */
    static String ranges(List<Integer> ascending) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < ascending.size(); i++) {
            int first = ascending.get(i);
            while (i + 1 < ascending.size() && ascending.get(i + 1) == ascending.get(i) + 1) {
                i++;
            }
            int last = ascending.get(i);
            b.append(b.isEmpty() ? "" : ", ").append(first).append(first == last ? "" : "-" + last);
        }
        return b.toString();
    }

    private static Merged join(List<JsonReportReader.Read> reads, List<String> problems) {
        Map<CheckResult, RunDetails.CheckOrigin> origins = new IdentityHashMap<>();
        List<CheckResult> results = new ArrayList<>();
        for (JsonReportReader.Read r : reads) {
            for (int i = 0; i < r.results().size(); i++) {
                results.add(r.results().get(i));
                origins.put(r.results().get(i), r.origins().get(i));
            }
        }
        results.sort(Comparator.comparing((CheckResult c) -> SpecIds.fileOf(c.location()))
                .thenComparingInt(c -> position(c.location(), 1)).thenComparingInt(c -> position(c.location(), 0)));
        Map<String, Long> twice = results.stream().collect(Collectors.groupingBy(c -> key(c, origins.get(c)),
                LinkedHashMap::new, Collectors.counting()));
        twice.forEach((key, n) -> {
            if (n > 1) {
                problems.add(key + " is in " + n + " reports; each is kept");
            }
        });
        boolean interrupted = reads.stream().anyMatch(JsonReportReader.Read::interrupted);
        int exit = Stream.of(ExitCode.of(results), reads.stream().mapToInt(r -> r.source().exitCode()).max().orElse(0),
                problems.isEmpty() ? 0 : ExitCode.USAGE.code()).max(Integer::compare).orElse(0);
        double seconds = reads.stream().mapToDouble(r -> r.source().seconds()).filter(Double::isFinite).max()
                .orElse(0);
        List<RunDetails.Source> sources = reads.stream().map(JsonReportReader.Read::source).toList();
        OffsetDateTime started = sources.stream().map(RunDetails.Source::startedAt).filter(Objects::nonNull)
                .min(Comparator.naturalOrder()).orElse(null);
        String hosts = sources.stream().map(RunDetails.Source::hostname).filter(Objects::nonNull).distinct()
                .collect(Collectors.joining(", "));
        RunDetails details = new RunDetails(started, hosts.isEmpty() ? null : hosts, null,
                reads.stream().mapToInt(JsonReportReader.Read::notRun).sum(),
                reads.stream().anyMatch(JsonReportReader.Read::stoppedEarly), origins::get, sources);
        Map<String, Double> durations = new LinkedHashMap<>();
        for (CheckResult c : results) {
            String id = origins.get(c).id();
            // as the cache records them: a spec that never ran here says nothing about its time
            boolean ran = c.status() != Status.INVALID && c.status() != Status.SKIPPED;
            if (id != null && ran && Double.isFinite(c.seconds())) {
                durations.merge(id, c.seconds(), Double::sum);
            }
        }
        return new Merged(List.copyOf(results), Summary.of(results, seconds, exit), details, interrupted, exit,
                problems, false, durations);
    }

    /** A check is the same check when its spec and backend are: by id, or by location for reports without ids. */
    private static String key(CheckResult c, RunDetails.CheckOrigin origin) {
        return (origin.id() != null ? origin.id() : c.location() + " " + c.name()) + " (" + c.backend() + ")";
    }

    /** {@code line} (from the end: 1) or {@code col} (0) of {@code file:line:col}; 0 when not a number. */
    private static int position(String location, int fromEnd) {
        String[] parts = location.split(":");
        try {
            return Integer.parseInt(parts[parts.length - 1 - fromEnd]);
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /**
     * Files as given; a directory as every *.json under it, sorted by path. Each is looked at before it is opened:
     * anything but a regular file (a FIFO would block the read forever, a device never ends) is named and not read.
     */
    private static List<Input> expand(List<Path> given, List<String> problems) {
        List<Input> inputs = new ArrayList<>();
        for (Path p : given) {
            BasicFileAttributes attrs = attributes(p, problems);
            if (attrs != null && attrs.isDirectory()) {
                walk(p, inputs, problems);
            } else if (attrs != null) {
                addIfRegular(p, attrs, true, inputs, problems);
            }
        }
        return inputs;
    }

    private static void walk(Path dir, List<Input> inputs, List<String> problems) {
        try (Stream<Path> walk = Files.walk(dir)) {
            List<Path> found = walk.filter(f -> f.toString().endsWith(".json")).sorted().toList();
            if (found.isEmpty()) {
                problems.add(dir + ": no *.json report in this directory");
            }
            for (Path f : found) {
                BasicFileAttributes attrs = attributes(f, problems);
                if (attrs != null && !attrs.isDirectory()) { // a directory named *.json: the walk goes into it
                    addIfRegular(f, attrs, false, inputs, problems);
                }
            }
        } catch (IOException | RuntimeException e) {
            problems.add(dir + ": cannot read: " + reason(e));
        }
    }

    /** Its attributes, links followed (what opening it would reach), or null when there are none (said why). */
    private static BasicFileAttributes attributes(Path file, List<String> problems) {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException | SecurityException e) {
            problems.add(file + ": " + (e instanceof NoSuchFileException ? "no such file or directory"
                    : "cannot read: " + reason(e)));
            return null;
        }
    }

    private static void addIfRegular(Path file, BasicFileAttributes attrs, boolean named, List<Input> inputs,
                                     List<String> problems) {
        String refusal = RegularFiles.refusal(file, attrs, "reports");
        if (refusal == null) {
            inputs.add(new Input(file, named));
        } else {
            problems.add(file + ": " + refusal);
        }
    }

    private static String reason(Exception e) {
        return e instanceof java.nio.file.NoSuchFileException ? "no such file"
                : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                : Objects.requireNonNullElse(e.getMessage(), e.getClass().getSimpleName());
    }
}
