package dev.gradcheck.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The commands the docs give run as written (issue 35: everything a user types in the docs is run by a test):
 * every `gradcheck check specs/ ...` line of README.md and docs/ selects what it says from gradcheck's suite, and
 * every `check my-specs/ ...` line from a user's specs as the README's tutorial makes them (tanh, cumprod, a
 * sigmoid; tagged as the tag examples assume); both run with --collect-only, their selection options kept, so no
 * check runs. Every `list-ops` and `docs` line exits 0, and ci.md's --collect-only sample shows the counts the
 * suite gives today.
 */
class DocCommandsTest {

    @org.junit.jupiter.api.io.TempDir
    Path user;

    private static final List<Path> DOCS = List.of(Path.of("README.md"), Path.of("docs/ci.md"),
            Path.of("docs/cli.md"), Path.of("docs/ops.md"), Path.of("docs/shell.md"), Path.of("docs/library-api.md"),
            Path.of("docs/spec-format.md"), Path.of("docs/report-schema.md"));
    private static final Pattern COMMAND = Pattern.compile(
            "(?m)^\\s*(?:\\$ )?(?:bin/)?gradcheck ((?:check (?:my-)?specs/|list-ops|docs)[^\\n#]*)");
    /** check's options that select, each with the number of values it takes. */
    private static final Set<String> SELECTING = Set.of("-k", "--keyword", "--only", "--skip", "--tag", "--shard");

    @Test
    void everyDocumentedCommandOnTheSuiteRuns() throws Exception {
        Path mySpecs = Files.createDirectories(user.resolve("my-specs"));
        Files.writeString(mySpecs.resolve("tanh.yaml"), "name: tanh\nop: tanh\ntags: [slow]\ninputs:\n"
                + "  x: {shape: [3, 4]}\n");
        Files.writeString(mySpecs.resolve("cumprod.yaml"), "name: cumprod\nop: cumprod\ntags: [slow, known-bug]\n"
                + "inputs:\n  x: {shape: [3, 4]}\n");
        Files.writeString(mySpecs.resolve("sigmoid.yaml"), "name: sigmoid\nop: sigmoid\ntags: [cuda]\ninputs:\n"
                + "  x: {shape: [3, 4]}\n");
        List<String> failed = new ArrayList<>();
        int ran = 0;
        for (Path doc : DOCS) {
            Matcher m = COMMAND.matcher(Files.readString(doc));
            while (m.find()) {
                if (m.group(1).contains("${{")) {
                    continue; // a workflow's template, filled in by GitHub
                }
                List<String> args = runnable(words(m.group(1).strip())).stream()
                        .map(a -> a.startsWith("my-specs/") ? user.resolve(a).toString() : a).toList();
                Cli r = Cli.run(args.toArray(String[]::new));
                ran++;
                if (r.exit() != 0) {
                    failed.add(doc + ": gradcheck " + m.group(1).strip() + " -> exit " + r.exit() + ": " + r.err());
                }
            }
        }
        assertEquals(List.of(), failed);
        assertTrue(ran >= 12, "found " + ran + " commands: has the docs' layout changed?");
    }

    @Test
    void ciCollectOnlySampleShowsTodaysCounts() throws Exception {
        String ci = Files.readString(Path.of("docs/ci.md"));
        Matcher sample = Pattern.compile("\\$ gradcheck check specs/ --only 'softmax\\*' --collect-only\\n"
                + "(SPEC.*?)\\n(\\S+ .*?)\\n.*?\\n\\n(\\d+ specs selected \\(of \\d+ found\\))", Pattern.DOTALL)
                .matcher(ci);
        assertTrue(sample.find(), "ci.md's --collect-only sample");
        Cli r = Cli.run("check", "specs/", "--only", "softmax*", "--collect-only");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(sample.group(1).replaceAll(" +", " "), lines.get(0).replaceAll(" +", " "));
        assertEquals(sample.group(2).replaceAll(" +", " "), lines.get(1).replaceAll(" +", " "));
        assertEquals(sample.group(3), lines.get(lines.size() - 1));
    }

    /** A check keeps its path and selection and only lists; other commands run as written. */
    static List<String> runnable(List<String> words) {
        if (!words.get(0).equals("check")) {
            return words;
        }
        List<String> args = new ArrayList<>(List.of("check", "--collect-only"));
        for (int i = 1; i < words.size(); i++) {
            String w = words.get(i);
            if (SELECTING.contains(w) && i + 1 < words.size()) {
                args.add(w);
                args.add(words.get(++i));
            } else if (!w.startsWith("-") && (i == 1 || !words.get(i - 1).startsWith("-"))) {
                args.add(w); // a path
            }
        }
        return args;
    }

    /** Words as a POSIX shell splits them, for the quoting the docs use ('...' and "..."). */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = null;
        char quote = 0;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                w = w == null ? new StringBuilder() : w;
            } else if (Character.isWhitespace(c)) {
                if (w != null) {
                    words.add(w.toString());
                    w = null;
                }
            } else {
                w = (w == null ? new StringBuilder() : w).append(c);
            }
        }
        if (w != null) {
            words.add(w.toString());
        }
        return words;
    }
}
